/**
 * Contract test for refunds: the real PagarmeAdapter over real HTTP against the Pagar.me emulator
 * (in-process, free ports), with a tiny receiver standing in for our webhook intake (URL secret).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import { ProviderError, RefundNotSupportedError, type CreateChargeInput, type ProviderCharge } from '../provider-adapter';
import { PagarmeAdapter } from './pagarme.adapter';
import { payAtEmulator, registerWebhookAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('pagarme', controlUrl, { secret_key: KEY }, id);

jest.setTimeout(30_000);

const KEY = 'sk_test_refundContract01';
const URL_SECRET = 'hmac_refunds_7f1';

let emulator: PagarmeEmulator;
let adapter: PagarmeAdapter;
let controlUrl: string;
let receiver: Server;
const received: { query: Record<string, string>; rawBody: Buffer }[] = [];
let counter = 0;

const CUSTOMER: CreateChargeInput['customer'] = {
  name: 'Maria Aparecida Souza',
  document: '52998224725',
  email: 'maria@example.com',
  phone: '+55 11 91234-5678',
  address: { street: 'Rua Augusta', number: '100', neighborhood: 'Consolação', city: 'São Paulo', state: 'SP', zip: '01304000' },
};

async function paidCharge(method: 'pix' | 'boleto', amount: number): Promise<ProviderCharge> {
  counter += 1;
  const charge = await adapter.createCharge({
    paymentId: `pay_refund_${counter}`, method, amount, customer: CUSTOMER, expiresInSeconds: 3600, metadata: {}, idempotencyKey: `pay_refund_${counter}:acc`,
  });
  await simulatePaid(charge.providerPaymentId);
  return charge;
}

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ query: Object.fromEntries(new URL(req.url ?? '/', 'http://r').searchParams), rawBody: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pagarme/acc_r?hmac=${URL_SECRET}`;
  adapter = new PagarmeAdapter({ baseUrl: `http://127.0.0.1:${ports.apiPort}/core/v5`, credentials: { secret_key: KEY }, webhookUrl, webhookSecret: URL_SECRET, settings: {}, timeoutMs: 5_000 });
  await registerWebhookAtEmulator(adapter, { provider: 'pagarme', controlUrl, credentials: { secret_key: KEY } }, webhookUrl);
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('refunds', () => {
  it('refunds a Pix partially then fully; the charge stays paid; getCharge lists both with our keys; webhooks name the charge', async () => {
    const charge = await paidCharge('pix', 10_000);
    const first = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_pg_partial', amount: 2_500 });
    expect(first).toMatchObject({ refundKey: 're_pg_partial', amount: 2_500, status: 'succeeded' });
    const rest = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_pg_rest', amount: 7_500 });
    expect(rest.status).toBe('succeeded');
    const now = await adapter.getCharge(charge.providerPaymentId);
    expect(now).toMatchObject({ status: 'paid', amountPaid: 10_000 });
    expect(now.refunds).toEqual([
      expect.objectContaining({ providerRefundId: first.providerRefundId, refundKey: 're_pg_partial', amount: 2_500, status: 'succeeded' }),
      expect.objectContaining({ providerRefundId: rest.providerRefundId, refundKey: 're_pg_rest', amount: 7_500, status: 'succeeded' }),
    ]);
    await emulator.webhooksIdle();
    const hooks = received
      .map((r) => ({ type: (JSON.parse(r.rawBody.toString()) as { type: string }).type, parsed: adapter.parseWebhook({ subPath: '', query: r.query, headers: {}, rawBody: r.rawBody }) }))
      .filter((h) => h.type === 'charge.partial_canceled' || h.type === 'charge.refunded');
    expect(hooks.map((h) => h.type)).toEqual(['charge.partial_canceled', 'charge.refunded']);
    for (const hook of hooks) expect(hook.parsed).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
  });

  it('repeating a refund id answers the same refund and never refunds twice', async () => {
    const charge = await paidCharge('pix', 5_000);
    const input = { providerPaymentId: charge.providerPaymentId, refundId: 're_pg_repeat', amount: 1_000 };
    const first = await adapter.refundCharge(input);
    const second = await adapter.refundCharge(input);
    expect(second.providerRefundId).toBe(first.providerRefundId);
    expect((await adapter.getCharge(charge.providerPaymentId)).refunds).toHaveLength(1);
  });

  it('classifies a refund over what is left as rejected, and a paid boleto as not supported by API', async () => {
    const charge = await paidCharge('pix', 3_000);
    const over = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_pg_over', amount: 3_001 }).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ProviderError);
    expect({ kind: (over as ProviderError).kind, http: (over as ProviderError).httpStatus }).toEqual({ kind: 'rejected', http: 422 });
    const boleto = await paidCharge('boleto', 4_000);
    await expect(adapter.refundCharge({ providerPaymentId: boleto.providerPaymentId, refundId: 're_pg_boleto', amount: 1_000 })).rejects.toBeInstanceOf(RefundNotSupportedError);
    expect((await adapter.getCharge(boleto.providerPaymentId)).refunds).toBeUndefined();
  });

  it('shows a refund made in the dashboard (boleto included) in getCharge, without our key', async () => {
    const boleto = await paidCharge('boleto', 4_000);
    const response = await fetch(`${controlUrl}/__control/charges/${boleto.providerPaymentId}/refund`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 1_500 }),
    });
    expect(response.status).toBe(200);
    const seen = (await adapter.getCharge(boleto.providerPaymentId)).refunds;
    expect(seen).toEqual([expect.objectContaining({ amount: 1_500, status: 'succeeded' })]);
    expect(seen?.[0]?.refundKey).toBeUndefined();
  });
});

/**
 * Contract test for refunds: the real AsaasAdapter over real HTTP against the Asaas emulator
 * (in-process, free ports), with a tiny receiver standing in for our webhook intake.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { ProviderError, type ProviderCharge } from '../provider-adapter';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator, until } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, id);

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnJlZnVuZHMtYQ';
const URL_SECRET = 'whsec_refunds_a51';

let emulator: AsaasEmulator;
let adapter: AsaasAdapter;
let controlUrl: string;
let receiver: Server;
const events: { event: string; paymentId: string }[] = [];
let counter = 0;

async function paidCharge(amount: number): Promise<ProviderCharge> {
  counter += 1;
  const charge = await adapter.createCharge({
    paymentId: `pay_refund_${counter}`,
    method: 'pix',
    amount,
    customer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `pay_refund_${counter}:acc`,
  });
  await simulatePaid(charge.providerPaymentId);
  return charge;
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 100 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { event: string; payment?: { id: string } };
      events.push({ event: parsed.event, paymentId: parsed.payment?.id ?? '' });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/asaas/acc_r?hmac=${URL_SECRET}`;
  const context = { baseUrl: `http://127.0.0.1:${ports.apiPort}/v3`, credentials: { api_key: API_KEY }, webhookUrl, webhookSecret: URL_SECRET, settings: {}, timeoutMs: 5_000 };
  const registration = await new AsaasAdapter(context).registerWebhook(webhookUrl);
  adapter = new AsaasAdapter({ ...context, ...(registration.signingSecret ? { signingSecret: registration.signingSecret } : {}) });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('refunds', () => {
  it('refunds partially (PENDING → DONE, PAYMENT_PARTIALLY_REFUNDED), then fully (REFUNDED, PAYMENT_REFUNDED)', async () => {
    const charge = await paidCharge(10_000);
    const first = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_as_partial_1', amount: 2_550, reason: 'Item devolvido' });
    expect(first).toMatchObject({ refundKey: 're_as_partial_1', amount: 2_550, status: 'pending', reason: 'Item devolvido' });
    const settled = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now : undefined;
    });
    expect(settled.status).toBe('paid');
    expect(settled.refunds).toEqual([expect.objectContaining({ providerRefundId: first.providerRefundId, refundKey: 're_as_partial_1', amount: 2_550 })]);
    expect(emulator.state.findPayment(charge.providerPaymentId)?.status).toBe('RECEIVED');

    const rest = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_as_rest_1', amount: 7_450 });
    expect(rest.status).toBe('pending');
    expect(emulator.state.findPayment(charge.providerPaymentId)?.status).toBe('REFUNDED');
    await until(async () => ((await adapter.getCharge(charge.providerPaymentId)).refunds?.every((r) => r.status === 'succeeded') ? true : undefined));
    await emulator.webhooksIdle();
    expect(events.filter((e) => e.paymentId === charge.providerPaymentId).map((e) => e.event)).toEqual(
      expect.arrayContaining(['PAYMENT_RECEIVED', 'PAYMENT_PARTIALLY_REFUNDED', 'PAYMENT_REFUNDED']),
    );
    // Still paid: the money arrived; the refunds say what happened next.
    expect((await adapter.getCharge(charge.providerPaymentId)).status).toBe('paid');
  });

  it('repeating a refund with the same id answers the same refund and never refunds twice', async () => {
    const charge = await paidCharge(5_000);
    const input = { providerPaymentId: charge.providerPaymentId, refundId: 're_as_repeat_1', amount: 1_000 };
    const first = await adapter.refundCharge(input);
    const second = await adapter.refundCharge(input);
    expect(second.providerRefundId).toBe(first.providerRefundId);
    expect(emulator.state.findPayment(charge.providerPaymentId)?.refunds).toHaveLength(1);
  });

  it('classifies a refund over what is left, and a refund of an unpaid charge, as rejected', async () => {
    const charge = await paidCharge(3_000);
    const over = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_as_over_1', amount: 3_001 }).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ProviderError);
    expect({ kind: (over as ProviderError).kind, code: (over as ProviderError).normalizedCode }).toEqual({ kind: 'rejected', code: 'provider_rejected' });
    counter += 1;
    const unpaid = await adapter.createCharge({
      paymentId: `pay_refund_${counter}`, method: 'pix', amount: 1_000, customer: { name: 'Ana Lima', document: '52998224725' },
      expiresInSeconds: 3600, metadata: {}, idempotencyKey: `pay_refund_${counter}:acc`,
    });
    await expect(adapter.refundCharge({ providerPaymentId: unpaid.providerPaymentId, refundId: 're_as_unpaid', amount: 100 })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('shows an estorno made in the dashboard in getCharge, without our key', async () => {
    const charge = await paidCharge(4_000);
    const response = await fetch(`${controlUrl}/__control/charges/${charge.providerPaymentId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value_cents: 1_500, description: 'Estorno pelo painel' }),
    });
    expect(response.status).toBe(200);
    const seen = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now.refunds[0] : undefined;
    });
    expect(seen).toMatchObject({ amount: 1_500, reason: 'Estorno pelo painel' });
    expect(seen.refundKey).toBeUndefined();
  });
});

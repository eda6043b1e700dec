/**
 * Contract test for refunds: the real MercadoPagoAdapter over real HTTP against the Mercado Pago
 * emulator (in-process, free ports), with a tiny receiver standing in for our webhook intake.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from '@orquestra/emulators';
import { ProviderError, type ProviderCharge } from '../provider-adapter';
import { MercadoPagoAdapter } from './mercadopago.adapter';
import { payAtEmulator, until } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('mercadopago', controlUrl, {}, id);

jest.setTimeout(30_000);

const ACCOUNT = { access_token: 'TEST-4412987063018275-031014-77aa0c9e2d7a4b3c8e5f1a2b3c4d5e6f-1234567891', webhook_secret: 'mp_assinatura_r_55e1' };
const URL_SECRET = 'whsec_refunds_9d2';

let emulator: MercadoPagoEmulator;
let adapter: MercadoPagoAdapter;
let controlUrl: string;
let receiver: Server;
const received: { query: Record<string, string>; body: string }[] = [];
let counter = 0;

async function paidCharge(amount: number): Promise<ProviderCharge> {
  counter += 1;
  const charge = await adapter.createCharge({
    paymentId: `pay_refund_${counter}`,
    method: 'pix',
    amount,
    customer: { name: 'Maria Souza', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `pay_refund_${counter}:acc`,
  });
  await simulatePaid(charge.providerPaymentId);
  return charge;
}

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [ACCOUNT], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 100 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ query: Object.fromEntries(new URL(req.url ?? '/', 'http://r').searchParams), body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mercadopago/acc_mp_r`;
  adapter = new MercadoPagoAdapter({
    baseUrl: `http://127.0.0.1:${ports.apiPort}`,
    credentials: { ...ACCOUNT },
    webhookUrl: `${receiverUrl}?hmac=${URL_SECRET}`,
    webhookSecret: URL_SECRET,
    settings: {},
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('refunds', () => {
  it('refunds partially (in_process → approved, payment partially_refunded), then fully (refunded), with webhooks', async () => {
    const charge = await paidCharge(10_000);
    const first = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_mp_partial_1', amount: 2_550 });
    expect(first).toMatchObject({ refundKey: 're_mp_partial_1', amount: 2_550, status: 'pending' });

    const settled = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now : undefined;
    });
    expect(settled.status).toBe('paid');
    expect(settled.refunds).toEqual([expect.objectContaining({ providerRefundId: first.providerRefundId, amount: 2_550, status: 'succeeded' })]);
    expect(emulator.state.findPayment(Number(charge.providerPaymentId))?.statusDetail).toBe('partially_refunded');

    const rest = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_mp_rest_1', amount: 7_450 });
    expect(rest.status).toBe('pending');
    await until(async () => ((await adapter.getCharge(charge.providerPaymentId)).refunds?.every((r) => r.status === 'succeeded') ? true : undefined));
    expect(emulator.state.findPayment(Number(charge.providerPaymentId))?.status).toBe('refunded');
    await emulator.webhooksIdle();
    const hooks = received.filter((r) => r.query['data.id'] === charge.providerPaymentId && (JSON.parse(r.body) as { action: string }).action === 'payment.updated');
    // Paid, then one notification per approved refund.
    expect(hooks.length).toBe(3);
  });

  it('repeating a refund with the same id answers the same refund and never refunds twice', async () => {
    const charge = await paidCharge(5_000);
    const input = { providerPaymentId: charge.providerPaymentId, refundId: 're_mp_repeat_1', amount: 1_000 };
    const first = await adapter.refundCharge(input);
    const second = await adapter.refundCharge(input);
    expect(second.providerRefundId).toBe(first.providerRefundId);
    expect(emulator.state.findPayment(Number(charge.providerPaymentId))?.refunds).toHaveLength(1);
  });

  it('classifies a refund over what is left, and a refund of an unpaid payment, as rejected', async () => {
    const charge = await paidCharge(3_000);
    const over = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_mp_over_1', amount: 3_001 }).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ProviderError);
    expect({ kind: (over as ProviderError).kind, code: (over as ProviderError).normalizedCode, http: (over as ProviderError).httpStatus }).toEqual({
      kind: 'rejected',
      code: 'provider_rejected',
      http: 400,
    });
    counter += 1;
    const unpaid = await adapter.createCharge({
      paymentId: `pay_refund_${counter}`, method: 'pix', amount: 1_000, customer: { name: 'Ana', email: 'ana@example.com' },
      expiresInSeconds: 3600, metadata: {}, idempotencyKey: `pay_refund_${counter}:acc`,
    });
    await expect(adapter.refundCharge({ providerPaymentId: unpaid.providerPaymentId, refundId: 're_mp_unpaid', amount: 100 })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('shows a refund made in the dashboard in getCharge, without our key', async () => {
    const charge = await paidCharge(4_000);
    const response = await fetch(`${controlUrl}/__control/charges/${charge.providerPaymentId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount_cents: 1_500 }),
    });
    expect(response.status).toBe(200);
    const seen = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now.refunds[0] : undefined;
    });
    expect(seen.amount).toBe(1_500);
    expect(seen.refundKey).toBeUndefined();
  });
});

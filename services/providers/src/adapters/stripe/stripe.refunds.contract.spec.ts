/**
 * Contract test for refunds: the real StripeAdapter over real HTTP against the Stripe emulator
 * (in-process, free ports), with a tiny receiver standing in for our webhook intake; webhooks are
 * checked with the adapter's own Stripe-Signature verification.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import { ProviderError, type CreateChargeInput, type ProviderCharge } from '../provider-adapter';
import { StripeAdapter } from './stripe.adapter';
import { payAtEmulator, until } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('stripe', controlUrl, {}, id);

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51RefundContractA000000000';

let emulator: StripeEmulator;
let adapter: StripeAdapter;
let controlUrl: string;
let receiver: Server;
const received: { headers: Record<string, string>; rawBody: Buffer }[] = [];
let counter = 0;

const BOLETO_CUSTOMER: CreateChargeInput['customer'] = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  address: { street: 'Rua Augusta', number: '100', neighborhood: 'Consolação', city: 'São Paulo', state: 'SP', zip: '01304000' },
};

async function paidCharge(method: 'card' | 'pix' | 'boleto', amount: number): Promise<ProviderCharge> {
  counter += 1;
  const charge = await adapter.createCharge({
    paymentId: `pay_refund_${counter}`,
    method,
    amount,
    customer: method === 'boleto' ? BOLETO_CUSTOMER : { name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `pay_refund_${counter}:acc`,
    ...(method === 'card' ? { card: { token: 'pm_card_visa', installments: 1 } } : {}),
  });
  if (method !== 'card') await simulatePaid(charge.providerPaymentId);
  return adapter.getCharge(charge.providerPaymentId);
}

const settle = (refundId: string, outcome: string) =>
  fetch(`${controlUrl}/__control/refunds/${refundId}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome }) });

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 100 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), rawBody: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe/acc_r?hmac=x`;
  const context = { baseUrl: `http://127.0.0.1:${ports.apiPort}`, credentials: { secret_key: SECRET_KEY }, webhookUrl, webhookSecret: 'x', settings: {}, timeoutMs: 5_000 };
  const registration = await new StripeAdapter(context).registerWebhook(webhookUrl);
  adapter = new StripeAdapter({ ...context, signingSecret: registration.signingSecret ?? '' });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('refunds', () => {
  it('refunds a card partially then fully; getCharge lists both with our keys; signed refund webhooks name the intent', async () => {
    const charge = await paidCharge('card', 10_000);
    const first = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_st_partial', amount: 2_500, reason: 'Cliente desistiu' });
    expect(first).toMatchObject({ refundKey: 're_st_partial', amount: 2_500, status: 'succeeded', reason: 'Cliente desistiu' });
    const rest = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_st_rest', amount: 7_500 });
    expect(rest.status).toBe('succeeded');
    const now = await adapter.getCharge(charge.providerPaymentId);
    expect(now.status).toBe('paid');
    expect(now.refunds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ providerRefundId: first.providerRefundId, refundKey: 're_st_partial', amount: 2_500, status: 'succeeded' }),
        expect.objectContaining({ providerRefundId: rest.providerRefundId, refundKey: 're_st_rest', amount: 7_500, status: 'succeeded' }),
      ]),
    );
    await emulator.webhooksIdle();
    const parsed = received.map((r) => ({ type: (JSON.parse(r.rawBody.toString()) as { type: string }).type, result: adapter.parseWebhook({ subPath: '', query: {}, headers: r.headers, rawBody: r.rawBody }) }));
    const refundHooks = parsed.filter((p) => p.type === 'charge.refunded' || p.type === 'refund.created');
    expect(refundHooks.length).toBe(4);
    for (const hook of refundHooks) expect(hook.result).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
  });

  it('repeating a refund id answers the same refund and never refunds twice', async () => {
    const charge = await paidCharge('card', 5_000);
    const input = { providerPaymentId: charge.providerPaymentId, refundId: 're_st_repeat', amount: 1_000 };
    const first = await adapter.refundCharge(input);
    const second = await adapter.refundCharge(input);
    expect(second.providerRefundId).toBe(first.providerRefundId);
    expect((await adapter.getCharge(charge.providerPaymentId)).refunds).toHaveLength(1);
  });

  it('keeps a Pix refund pending until Stripe settles it', async () => {
    const charge = await paidCharge('pix', 4_000);
    const refund = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_st_pix', amount: 4_000 });
    expect(refund.status).toBe('pending');
    const settled = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now.refunds[0] : undefined;
    });
    expect(settled).toMatchObject({ refundKey: 're_st_pix', amount: 4_000 });
  });

  it('keeps a boleto refund pending (requires_action) until the payer gives bank details; a canceled one is failed', async () => {
    const charge = await paidCharge('boleto', 6_000);
    const refund = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_st_boleto', amount: 2_000 });
    expect(refund.status).toBe('pending');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await adapter.getCharge(charge.providerPaymentId)).refunds?.[0]?.status).toBe('pending');
    expect((await settle(refund.providerRefundId, 'succeeded')).status).toBe(200);
    expect((await adapter.getCharge(charge.providerPaymentId)).refunds?.[0]?.status).toBe('succeeded');

    const other = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_st_boleto_2', amount: 1_000 });
    expect((await settle(other.providerRefundId, 'canceled')).status).toBe(200);
    const canceled = (await adapter.getCharge(charge.providerPaymentId)).refunds?.find((r) => r.providerRefundId === other.providerRefundId);
    expect(canceled).toMatchObject({ status: 'failed', failureCode: 'refund_canceled' });
  });

  it('classifies a refund over what is left, and one of an unpaid intent, as rejected', async () => {
    const charge = await paidCharge('card', 3_000);
    const over = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_st_over', amount: 3_001 }).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ProviderError);
    expect({ kind: (over as ProviderError).kind, code: (over as ProviderError).normalizedCode, http: (over as ProviderError).httpStatus }).toEqual({ kind: 'rejected', code: 'provider_rejected', http: 400 });
    counter += 1;
    const unpaid = await adapter.createCharge({
      paymentId: `pay_refund_${counter}`, method: 'pix', amount: 1_000, customer: { name: 'Ana' }, expiresInSeconds: 3600, metadata: {}, idempotencyKey: `pay_refund_${counter}:acc`,
    });
    await expect(adapter.refundCharge({ providerPaymentId: unpaid.providerPaymentId, refundId: 're_st_unpaid', amount: 100 })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('shows a refund made in the dashboard in getCharge, without our key', async () => {
    const charge = await paidCharge('card', 4_000);
    const response = await fetch(`${controlUrl}/__control/charges/${charge.providerPaymentId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1_500 }),
    });
    expect(response.status).toBe(200);
    const seen = (await adapter.getCharge(charge.providerPaymentId)).refunds;
    expect(seen).toEqual([expect.objectContaining({ amount: 1_500, status: 'succeeded' })]);
    expect(seen?.[0]?.refundKey).toBeUndefined();
  });
});

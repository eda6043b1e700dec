/**
 * Contract test for refunds: the real WooviAdapter over real HTTP against the Woovi emulator
 * (in-process, free ports), with a receiver for its RSA-signed webhooks.
 */
import { createWooviEmulator, type WooviEmulator } from '@orquestra/emulators';
import { ProviderError, type ProviderCharge, type WebhookRequest } from '../provider-adapter';
import type { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';
import { payAtEmulator, until, type WebhookRecorder } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('woovi', controlUrl, { app_id: APP_ID }, id);

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX3JlZnVuZHM6c2VjcmV0';
const WEBHOOK_SECRET = 'whsec_refunds_w7';

let adapter: WooviAdapter;
let controlUrl: string;
let receiver: WebhookRecorder;
const received = (): WebhookRequest[] => receiver.received;
let counter = 0;

async function paidCharge(amount: number): Promise<ProviderCharge> {
  counter += 1;
  const charge = await adapter.createCharge({
    paymentId: `pay_refund_${counter}`,
    method: 'pix',
    amount,
    customer: { name: 'Maria Souza' },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `pay_refund_${counter}:acc`,
  });
  await simulatePaid(charge.providerPaymentId);
  return charge;
}

let emulator: WooviEmulator;
let contract: WooviContract;

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 100 });
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: WEBHOOK_SECRET, account: 'acc_r', emulator });
  ({ adapter, controlUrl, receiver } = contract);
});

afterAll(async () => {
  await contract?.stop();
});

const refundHooks = () => received().filter((r) => r.rawBody.includes('OPENPIX:TRANSACTION_REFUND_RECEIVED') && r.rawBody.includes('"type":"REFUND"'));

describe('refunds', () => {
  it('refunds partially by the charge (IN_PROCESSING → CONFIRMED, signed webhook naming the charge), then the rest by end-to-end id', async () => {
    const charge = await paidCharge(10_000);
    const first = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_wv_partial_1', amount: 2_550, reason: 'Item devolvido' });
    expect(first).toMatchObject({ providerRefundId: 're_wv_partial_1', refundKey: 're_wv_partial_1', amount: 2_550, status: 'pending', reason: 'Item devolvido' });
    const settled = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now : undefined;
    });
    expect(settled.status).toBe('paid');
    const hook = await until(() => Promise.resolve(refundHooks().find((r) => r.rawBody.includes('re_wv_partial_1'))));
    expect(adapter.parseWebhook(hook)).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });

    const endToEndId = emulator.state.findChargesById(charge.providerPaymentId)[0]?.pix?.endToEndId;
    expect(endToEndId).toMatch(/^E/);
    const rest = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_wv_rest_1', amount: 7_450, endToEndId });
    expect(rest).toMatchObject({ amount: 7_450, status: 'pending' });
    const all = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.length === 2 && now.refunds.every((r) => r.status === 'succeeded') ? now.refunds : undefined;
    });
    expect(all.reduce((sum, r) => sum + r.amount, 0)).toBe(10_000);
  });

  it('repeating a refund with the same id answers the same refund and never refunds twice', async () => {
    const charge = await paidCharge(5_000);
    const input = { providerPaymentId: charge.providerPaymentId, refundId: 're_wv_repeat_1', amount: 1_000 };
    const first = await adapter.refundCharge(input);
    const second = await adapter.refundCharge(input);
    expect(second.providerRefundId).toBe(first.providerRefundId);
    const refunds = await adapter.getCharge(charge.providerPaymentId);
    expect(refunds.refunds).toHaveLength(1);
  });

  it('classifies a refund over what is left, and a refund of an unpaid charge, as rejected', async () => {
    const charge = await paidCharge(3_000);
    const over = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_wv_over_1', amount: 3_001 }).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ProviderError);
    expect({ kind: (over as ProviderError).kind, code: (over as ProviderError).normalizedCode }).toEqual({ kind: 'rejected', code: 'provider_rejected' });
    counter += 1;
    const unpaid = await adapter.createCharge({
      paymentId: `pay_refund_${counter}`, method: 'pix', amount: 1_000, customer: { name: 'Ana Lima' },
      expiresInSeconds: 3600, metadata: {}, idempotencyKey: `pay_refund_${counter}:acc`,
    });
    await expect(adapter.refundCharge({ providerPaymentId: unpaid.providerPaymentId, refundId: 're_wv_unpaid', amount: 100 })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('shows a refund made in the dashboard in getCharge, under its own correlationID', async () => {
    const charge = await paidCharge(4_000);
    const response = await fetch(`${controlUrl}/__control/charges/${charge.providerPaymentId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: 1_500 }),
    });
    expect(response.status).toBe(200);
    const made = (await response.json()) as { correlationID: string };
    const seen = await until(async () => {
      const now = await adapter.getCharge(charge.providerPaymentId);
      return now.refunds?.[0]?.status === 'succeeded' ? now.refunds[0] : undefined;
    });
    expect(seen).toMatchObject({ amount: 1_500, providerRefundId: made.correlationID });
    expect(seen.refundKey).not.toMatch(/^re_/);
  });
});

/**
 * Contract test: Woovi MED disputes from the emulator over real HTTP. The adapter registers its
 * webhooks (dispute events included), a paid charge is disputed and decided through the emulator's
 * control routes, and the RSA-signed webhooks it posts are read by the real adapter.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createWooviEmulator } from '@orquestra/emulators';
import type { WebhookRequest } from '../provider-adapter';
import type { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';
import { payAtEmulator, type WebhookRecorder } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('woovi', controlUrl, { app_id: APP_ID }, id);

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX2Rpc3B1dGVzOnNlY3JldA==';
const WEBHOOK_SECRET = 'whsec_disputes';
const signingKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let controlUrl: string;
let adapter: WooviAdapter;
let receiver: WebhookRecorder;
const received = (): WebhookRequest[] => receiver.received;

const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

async function disputeWebhooks(count: number): Promise<WebhookRequest[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = received().filter((r) => r.rawBody.toString().includes('"dispute"'));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} dispute webhooks, got ${found.length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let contract: WooviContract;

beforeAll(async () => {
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: WEBHOOK_SECRET, account: 'acc_1', emulator: createWooviEmulator({ accounts: [APP_ID], signingPrivateKeyPem: signingKeyPem, webhooks: { retries: 1, baseDelayMs: 20, timeoutMs: 2_000 } }) });
  ({ adapter, controlUrl, receiver } = contract);
});

afterAll(async () => {
  await contract?.stop();
});

describe('Woovi MED disputes (emulator)', () => {
  it('a disputed paid Pix arrives as a signed DISPUTE_CREATED, its decision as DISPUTE_ACCEPTED, and a redelivery keys alike', async () => {
    const charge = await adapter.createCharge({
      paymentId: 'pay_med_1',
      method: 'pix',
      amount: 5_000,
      customer: { name: 'Maria Souza', document: '52998224725' },
      expiresInSeconds: 3600,
      metadata: {},
      idempotencyKey: 'pay_med_1:acc_1',
    });
    await simulatePaid(charge.providerPaymentId);
    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid.status).toBe('paid');

    const refusedUnpaid = await control(`/__control/charges/nope/dispute`);
    expect(refusedUnpaid.status).toBe(404);
    const opened = await control(`/__control/charges/${charge.providerPaymentId}/dispute`, { value: 3_000, disputeReason: 'Golpe' });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'OPENED', value: 3_000, webhooks: 1 });
    const endToEndId = String(opened.body['endToEndId']);
    expect(endToEndId).toMatch(/^E/);
    expect((await control(`/__control/charges/${charge.providerPaymentId}/dispute`)).status).toBe(409);

    const [createdHook] = await disputeWebhooks(1);
    const created = adapter.parseWebhook(createdHook!);
    expect(created).toMatchObject({
      ok: true,
      providerPaymentIds: [],
      disputes: [{ providerDisputeId: endToEndId, endToEndId, kind: 'med', status: 'open', providerStatus: 'OPENED', amount: 3_000, reason: 'Golpe', acceptsEvidence: false }],
    });

    // The MED names only the Pix; the adapter finds its charge (GET /api/v1/transaction/{endToEndId}).
    if (!created.ok || !created.disputes?.[0]) throw new Error('no dispute reported');
    await expect(adapter.chargeOfDispute(created.disputes[0])).resolves.toBe(charge.providerPaymentId);
    await expect(adapter.chargeOfDispute({ ...created.disputes[0], endToEndId: 'E00000000202601010000unknown000' })).resolves.toBeUndefined();

    const redelivered = await control(`/__control/disputes/${String(opened.body['id'])}/redeliver`);
    expect(redelivered.body['webhooks']).toBe(1);
    const [, againHook] = await disputeWebhooks(2);
    const again = adapter.parseWebhook(againHook!);
    expect(again.ok && created.ok && again.eventKey === created.eventKey).toBe(true);

    const decided = await control(`/__control/disputes/${String(opened.body['id'])}/decide`, { status: 'ACCEPTED' });
    expect(decided.body).toMatchObject({ status: 'ACCEPTED' });
    const [, , acceptedHook] = await disputeWebhooks(3);
    const accepted = adapter.parseWebhook(acceptedHook!);
    expect(accepted).toMatchObject({ ok: true, disputes: [{ providerDisputeId: endToEndId, status: 'lost', providerStatus: 'ACCEPTED' }] });
    expect(accepted.ok && created.ok && accepted.eventKey !== created.eventKey).toBe(true);
    expect((await control(`/__control/disputes/${String(opened.body['id'])}/decide`, { status: 'REJECTED' })).status).toBe(409);
  });
});

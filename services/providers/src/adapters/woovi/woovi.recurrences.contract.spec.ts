/**
 * Contract test: the real WooviAdapter's Pix Automático (PIX_RECURRING) over real HTTP against the
 * Woovi emulator, whose control port is the payer's bank; webhooks RSA-signed as Woovi signs them.
 * Woovi creates and retries the cycles itself. The emulator's clock starts on Monday 2026-03-02,
 * 09:00 in São Paulo, and only moves forward: the tests run in order.
 */
import { createWooviEmulator } from '@orquestra/emulators';
import type { WebhookRequest } from '../provider-adapter';
import { CycleChargeNotApplicableError, type CreateRecurrenceInput, type RecurrenceEvent } from '../provider-recurrences';
import { payAtEmulator } from '../testing/contract-kit';
import { clockTo as moveClock, controlPost, sawRecurrenceEvent } from '../testing/recurrence-contract-kit';
import type { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX3JlY3VycmVuY2U6Q2xpZW50X1NlY3JldA==';
const WEBHOOK_SECRET = 'whsec_woovi_rec';
const BASE = new Date('2026-03-02T12:00:00.000Z');

let contract: WooviContract;
let adapter: WooviAdapter;
let controlUrl: string;
let apiUrl: string;
let received: WebhookRequest[];

const ADDRESS = { street: 'Avenida Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' };

const recurrence = (subscriptionId: string, overrides: Partial<CreateRecurrenceInput> = {}): CreateRecurrenceInput => ({
  subscriptionId,
  payer: { name: 'Ana Lima', document: '52998224725', address: ADDRESS },
  frequency: 'monthly',
  amount: 2990,
  description: 'Assinatura revista',
  startDate: '2026-03-10',
  retry: true,
  approvalExpiresInSeconds: 86_400,
  ...overrides,
});

const control = (path: string, body?: unknown) => controlPost(controlUrl, path, body);
const clockTo = (at: string) => moveClock(controlUrl, at);
const pay = (correlationID: string) => payAtEmulator('woovi', controlUrl, { app_id: APP_ID }, correlationID);

const sawEvent = (match: Partial<RecurrenceEvent>) => sawRecurrenceEvent(adapter, received, match);

beforeAll(async () => {
  const woovi = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 }, now: () => BASE, sweepMs: 0 });
  // The kit starts it; the API port is kept to read what only the emulator's API shows.
  const emulator = {
    start: async () => {
      const ports = await woovi.start();
      apiUrl = `http://127.0.0.1:${ports.apiPort}`;
      return ports;
    },
    stop: () => woovi.stop(),
  };
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: WEBHOOK_SECRET, account: 'acc_woovi_rec', emulator });
  ({ adapter, controlUrl } = contract);
  received = contract.receiver.received;
  await adapter.registerRecurrenceWebhooks(`${contract.receiver.url}/webhooks/woovi/acc_woovi_rec?hmac=${WEBHOOK_SECRET}`);
});

afterAll(async () => {
  await contract?.stop();
});

let subscriptionId: string;
let firstCycle: string;

describe('Woovi Pix Automático', () => {
  it('refuses, before any request, what Woovi cannot take', async () => {
    await expect(adapter.createRecurrence(recurrence('sub_woovi_var', { amount: undefined }))).rejects.toMatchObject({ kind: 'rejected', param: { name: 'amount' } });
    await expect(adapter.createRecurrence(recurrence('sub_woovi_first', { firstAmount: 100 }))).rejects.toMatchObject({ param: { name: 'first_amount' } });
    await expect(adapter.createRecurrence(recurrence('sub_woovi_addr', { payer: { name: 'Ana Lima', document: '52998224725' } }))).rejects.toMatchObject({ param: { name: 'customer.address' } });
  });

  it('the payer refuses the recurrence in the bank app', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_woovi_refused'));
    expect(rec).toMatchObject({ status: 'pending', providerStatus: 'PENDING', cycles: 'provider' });
    expect(rec.approval?.qrCode).toMatch(/^000201/);
    expect(rec.approval?.qrCodeBase64).toMatch(/^iVBOR/);
    expect(await control(`/__control/subscriptions/${rec.providerRecurrenceId}/refuse`)).toBe(200);
    expect(await adapter.getRecurrence(rec.providerRecurrenceId)).toMatchObject({ status: 'refused', providerStatus: 'REJECTED' });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: rec.providerRecurrenceId, status: 'refused' });
  });

  it('approved in the bank app (ONLY_RECURRENCY); a repeated create finds the same subscription', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_woovi_main'));
    subscriptionId = rec.providerRecurrenceId;
    expect((await adapter.createRecurrence(recurrence('sub_woovi_main'))).providerRecurrenceId).toBe(subscriptionId);
    expect(await control(`/__control/subscriptions/${subscriptionId}/approve`)).toBe(200);
    expect(await adapter.getRecurrence(subscriptionId)).toMatchObject({ status: 'active', providerStatus: 'ACTIVE', cycleChargeIds: [] });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: subscriptionId, status: 'active' });
  });

  it('we send no cycle charge: a typed not-applicable error', async () => {
    await expect(adapter.createCycleCharge({ providerRecurrenceId: subscriptionId, paymentId: 'pay_w1', amount: 2990, dueDate: '2026-03-10' })).rejects.toBeInstanceOf(CycleChargeNotApplicableError);
  });

  it("Woovi creates the cycle's charge 4 days ahead; it is debited on its date", async () => {
    await clockTo('2026-03-06T12:00:00Z');
    const ids = (await adapter.getRecurrence(subscriptionId)).cycleChargeIds ?? [];
    expect(ids).toHaveLength(1);
    firstCycle = ids[0] as string;
    expect(await adapter.getCycleCharge({ providerRecurrenceId: subscriptionId, providerChargeId: firstCycle })).toMatchObject({
      status: 'scheduled',
      amount: 2990,
      dueDate: '2026-03-10',
      failedAttempts: 0,
      nextAttemptDate: '2026-03-10',
    });
    await clockTo('2026-03-10T12:00:00Z');
    await pay(firstCycle);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: subscriptionId, providerChargeId: firstCycle })).toMatchObject({ status: 'paid', providerStatus: 'COMPLETED' });
    await sawEvent({ type: 'cycle', providerChargeId: firstCycle, status: 'paid' });
  });

  it('a failed debit is retried by Woovi (THREE_RETRIES_7_DAYS) and paid on the retry', async () => {
    await clockTo('2026-04-06T12:00:00Z');
    const second = ((await adapter.getRecurrence(subscriptionId)).cycleChargeIds ?? []).find((id) => id !== firstCycle) as string;
    await clockTo('2026-04-10T12:00:00Z');
    expect(await control(`/__control/charges/${second}/fail`)).toBe(200);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: subscriptionId, providerChargeId: second })).toMatchObject({ status: 'retrying', failedAttempts: 1, nextAttemptDate: '2026-04-11' });
    await sawEvent({ type: 'cycle', providerChargeId: second, status: 'retrying' });
    await clockTo('2026-04-11T12:00:00Z');
    await pay(second);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: subscriptionId, providerChargeId: second })).toMatchObject({ status: 'paid', failedAttempts: 1 });
  });

  it('cancel stops the subscription: no further cycle is created', async () => {
    expect(await adapter.cancelRecurrence(subscriptionId)).toMatchObject({ status: 'canceled', providerStatus: 'CANCELED' });
    expect(await adapter.cancelRecurrence(subscriptionId)).toMatchObject({ status: 'canceled' });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: subscriptionId, status: 'canceled' });
    await clockTo('2026-05-08T12:00:00Z');
    expect((await adapter.getRecurrence(subscriptionId)).cycleChargeIds).toHaveLength(2);
  });

  it('PAYMENT_ON_APPROVAL: paying the approval QR pays the first cycle and approves', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_woovi_poa', { firstAmount: 2990, startDate: '2026-05-08' }));
    expect(rec).toMatchObject({ status: 'pending' });
    expect(rec.approvalChargeId).toBe(await approvalChargeOf(rec.providerRecurrenceId));
    await pay(rec.approvalChargeId as string);
    expect(await adapter.getCharge(rec.approvalChargeId as string)).toMatchObject({ status: 'paid', amount: 2990 });
    expect(await adapter.getRecurrence(rec.providerRecurrenceId)).toMatchObject({ status: 'active' });
  });

  it('an unknown subscription is not_found; a delivery without our secret is refused', async () => {
    await expect(adapter.getRecurrence('U3Vic2NyaXB0aW9uOnVua25vd24=')).rejects.toMatchObject({ kind: 'not_found' });
    const [delivery] = received as [WebhookRequest];
    expect(adapter.parseRecurrenceWebhook({ ...delivery, query: { hmac: 'wrong' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });
});

/** The approval charge, as the API shows it on the subscription (what the payer's QR pays). */
async function approvalChargeOf(id: string): Promise<string> {
  const response = await fetch(`${apiUrl}/api/v1/subscriptions/${encodeURIComponent(id)}`, { headers: { authorization: APP_ID } });
  const body = (await response.json()) as { subscription: { pixRecurring: { approvalChargeCorrelationID: string } } };
  return body.subscription.pixRecurring.approvalChargeCorrelationID;
}

/**
 * Contract test: the real AsaasAdapter's Pix Automático over real HTTP against the Asaas emulator,
 * whose control port is the payer's bank. Asaas creates the cycles itself. The emulator's clock
 * starts on Monday 2026-03-02, 09:00 in São Paulo, and only moves forward: the tests run in order.
 */
import { hasError, parsePix } from 'pix-utils';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext, type WebhookRequest } from '../provider-adapter';
import { CycleChargeNotApplicableError, type CreateRecurrenceInput, type RecurrenceEvent } from '../provider-recurrences';
import { payAtEmulator, startWebhookRecorder, type WebhookRecorder } from '../testing/contract-kit';
import { clockTo as moveClock, controlPost, sawRecurrenceEvent } from '../testing/recurrence-contract-kit';
import { AsaasAdapter } from './asaas.adapter';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnJlY3VycmVuY2U';
const BASE = new Date('2026-03-02T12:00:00.000Z');

let emulator: AsaasEmulator;
let baseUrl: string;
let controlUrl: string;
let adapter: AsaasAdapter;
let receiver: WebhookRecorder;
let received: WebhookRequest[];

const recurrence = (subscriptionId: string, overrides: Partial<CreateRecurrenceInput> = {}): CreateRecurrenceInput => ({
  subscriptionId,
  payer: { name: 'João Pereira', document: '390.533.447-05' },
  frequency: 'monthly',
  amount: 4990,
  firstAmount: 1990,
  description: 'Clube do livro',
  startDate: '2026-03-10',
  retry: true,
  approvalExpiresInSeconds: 86_400,
  ...overrides,
});

const control = (path: string, body?: unknown) => controlPost(controlUrl, path, body);
const clockTo = (at: string) => moveClock(controlUrl, at);
const pay = (id: string) => payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, id);

/** The immediate QR code's payment, as the API shows it (what the payer pays to approve). */
async function immediatePaymentOf(authorizationId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/pix/automatic/authorizations/${authorizationId}`, { headers: { access_token: API_KEY, 'user-agent': 'contract-test' } });
  return ((await response.json()) as { immediateQrCode: { paymentId: string } }).immediateQrCode.paymentId;
}

const sawEvent = (match: Partial<RecurrenceEvent>) => sawRecurrenceEvent(adapter, received, match);

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 }, now: () => BASE, sweepMs: 0 });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}/v3`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = await startWebhookRecorder();
  received = receiver.received;
  const url = `${receiver.url}/webhooks/asaas/acc_asaas_rec`;
  const context: AdapterContext = { baseUrl, credentials: { api_key: API_KEY }, webhookUrl: url, webhookSecret: 'whsec_asaas_rec', settings: {}, timeoutMs: 5_000 };
  const registering = new AsaasAdapter(context);
  const { signingSecret } = await registering.registerWebhook(url);
  await registering.close();
  adapter = new AsaasAdapter({ ...context, ...(signingSecret ? { signingSecret } : {}) });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await receiver?.close();
});

let authorizationId: string;
let cycleIds: string[];
let paidCycle: string;

describe('Asaas Pix Automático', () => {
  it('refuses, before any request, what Asaas cannot do: a variable amount, nothing paid at approval', async () => {
    await expect(adapter.createRecurrence(recurrence('sub_asaas_variable', { amount: undefined }))).rejects.toMatchObject({ kind: 'rejected', param: { name: 'amount' } });
    await expect(adapter.createRecurrence(recurrence('sub_asaas_nofirst', { firstAmount: 0 }))).rejects.toMatchObject({ kind: 'rejected', param: { name: 'first_amount' } });
  });

  it('the payer refuses the authorization in the bank app', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_asaas_refused'));
    expect(rec).toMatchObject({ status: 'pending', providerStatus: 'CREATED', cycles: 'provider' });
    expect(rec.approval?.qrCodeBase64).toBeTruthy();
    expect(await control(`/__control/pix-automatic/authorizations/${rec.providerRecurrenceId}/refuse`)).toBe(200);
    expect(await adapter.getRecurrence(rec.providerRecurrenceId)).toMatchObject({ status: 'refused', providerStatus: 'REFUSED', cycleChargeIds: [] });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: rec.providerRecurrenceId, status: 'refused' });
  });

  it('paying the immediate QR code approves it; a repeated create finds the same authorization', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_asaas_main'));
    expect(hasError(parsePix(rec.approval?.qrCode ?? ''))).toBe(false);
    authorizationId = rec.providerRecurrenceId;
    expect((await adapter.createRecurrence(recurrence('sub_asaas_main'))).providerRecurrenceId).toBe(authorizationId);

    expect(rec.approvalChargeId).toBe(await immediatePaymentOf(authorizationId));
    await pay(rec.approvalChargeId as string);
    expect(await adapter.getCharge(rec.approvalChargeId as string)).toMatchObject({ status: 'paid', amount: 1990 });
    const active = await adapter.getRecurrence(authorizationId);
    expect(active).toMatchObject({ status: 'active', providerStatus: 'ACTIVE' });
    expect(active.approval).toBeUndefined();
    await sawEvent({ type: 'recurrence', providerRecurrenceId: authorizationId, status: 'active' });
    // Asaas created the first cycle's charge (due in 8 days) itself.
    cycleIds = active.cycleChargeIds ?? [];
    expect(cycleIds).toHaveLength(1);
  });

  it('we send no cycle charge: a typed not-applicable error with a Portuguese message', async () => {
    const error = await adapter.createCycleCharge({ providerRecurrenceId: authorizationId, paymentId: 'pay_asaas_1', amount: 4990, dueDate: '2026-03-10' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CycleChargeNotApplicableError);
    expect(error).toMatchObject({ kind: 'rejected', publicMessage: expect.stringContaining('cria sozinho') });
  });

  it("Asaas's cycle is debited on its due date", async () => {
    const [first] = cycleIds as [string];
    paidCycle = first;
    expect(await adapter.getCycleCharge({ providerRecurrenceId: authorizationId, providerChargeId: first })).toMatchObject({ providerRecurrenceId: authorizationId, status: 'scheduled', amount: 4990, dueDate: '2026-03-10', failedAttempts: 0 });
    await clockTo('2026-03-10T12:00:00Z');
    await pay(first);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: authorizationId, providerChargeId: first })).toMatchObject({ status: 'paid', providerStatus: 'CONFIRMED' });
    await sawEvent({ type: 'cycle', providerChargeId: first, providerRecurrenceId: authorizationId, status: 'paid' });
  });

  it('a debit that fails leaves the cycle failed (OVERDUE)', async () => {
    await clockTo('2026-04-01T12:00:00Z');
    const ids = (await adapter.getRecurrence(authorizationId)).cycleChargeIds ?? [];
    expect(ids).toHaveLength(2);
    const second = ids.find((id) => !cycleIds.includes(id)) as string;
    await clockTo('2026-04-10T12:00:00Z');
    expect(await control(`/__control/charges/${second}/fail`)).toBe(200);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: authorizationId, providerChargeId: second })).toMatchObject({ status: 'failed', providerStatus: 'OVERDUE', failedAttempts: 1 });
    await sawEvent({ type: 'cycle', providerChargeId: second, status: 'failed' });
  });

  it('cancel stops the authorization: no further cycle is created', async () => {
    expect(await adapter.cancelRecurrence(authorizationId)).toMatchObject({ status: 'canceled', providerStatus: 'CANCELLED' });
    expect(await adapter.cancelRecurrence(authorizationId)).toMatchObject({ status: 'canceled' });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: authorizationId, status: 'canceled' });
    // The unpaid (OVERDUE) cycle was removed with it; the paid one stays.
    const left = (await adapter.getRecurrence(authorizationId)).cycleChargeIds;
    expect(left).toEqual([paidCycle]);
    await clockTo('2026-05-05T12:00:00Z');
    expect((await adapter.getRecurrence(authorizationId)).cycleChargeIds).toEqual(left);
  });

  it('an unknown authorization is not_found; a delivery without the token is refused', async () => {
    await expect(adapter.getRecurrence('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(ProviderError);
    await expect(adapter.getRecurrence('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ kind: 'not_found' });
    const [delivery] = received as [WebhookRequest];
    expect(adapter.parseRecurrenceWebhook({ ...delivery, headers: { 'asaas-access-token': 'wrong' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });
});

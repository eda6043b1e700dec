/**
 * Contract test: the real EfiAdapter's Pix Automático over HTTPS/mTLS against the Efí emulator,
 * whose control port is the payer's bank. The emulator's clock starts on Monday 2026-03-02, 09:00
 * in São Paulo, and only moves forward: the tests run in order.
 */
import { parsePix, hasError } from 'pix-utils';
import { createEfiEmulator, generateTestCerts, type EfiEmulator, type TestCerts } from '@orquestra/emulators';
import { ProviderError, type WebhookRequest } from '../provider-adapter';
import type { CreateRecurrenceInput, RecurrenceEvent } from '../provider-recurrences';
import { payAtEmulator, startWebhookRecorder, until, type WebhookRecorder } from '../testing/contract-kit';
import { clockTo as moveClock, controlPost, sawRecurrenceEvent } from '../testing/recurrence-contract-kit';
import { EfiAdapter } from './efi.adapter';
import { activationTxidFor } from './efi.recurrences.transformers';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'Client_Id_rec_contract', client_secret: 'Client_Secret_rec_contract', chave: '2b1e7c5a-0d4f-4a8e-9c3b-6f2d1e0a9b87' };
const WEBHOOK_SECRET = 'whsec_rec_5e2a9c';
const BASE = new Date('2026-03-02T12:00:00.000Z');

let certs: TestCerts;
let emulator: EfiEmulator;
let controlUrl: string;
let adapter: EfiAdapter;
let receiver: WebhookRecorder;
let received: WebhookRequest[];

const recurrence = (subscriptionId: string, overrides: Partial<CreateRecurrenceInput> = {}): CreateRecurrenceInput => ({
  subscriptionId,
  payer: { name: 'Maria Aparecida Souza', document: '529.982.247-25' },
  frequency: 'monthly',
  amount: 4990,
  firstAmount: 4990,
  description: 'Plano mensal Orquestra',
  startDate: '2026-03-10',
  retry: true,
  approvalExpiresInSeconds: 86_400,
  ...overrides,
});

const control = (path: string, body?: unknown) => controlPost(controlUrl, path, body);
const clockTo = (at: string) => moveClock(controlUrl, at);
const sawEvent = (match: Partial<RecurrenceEvent>) => sawRecurrenceEvent(adapter, received, match);

beforeAll(async () => {
  certs = generateTestCerts('efi-rec-contract');
  emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [CLIENT],
    webhooks: { retries: 0, timeoutMs: 2_000 },
    now: () => BASE,
    // Months pass here; the adapter would refresh an expired token anyway.
    tokenTtlSeconds: 10 * 365 * 86_400,
    sweepMs: 0,
  });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = new EfiAdapter({
    baseUrl: `https://localhost:${ports.apiPort}`,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    certificatePem: certs.clientCertPem,
    privateKeyPem: certs.clientKeyPem,
    caPem: certs.caPem,
    chave: CLIENT.chave,
    timeoutMs: 5_000,
    webhookSecret: WEBHOOK_SECRET,
  });
  receiver = await startWebhookRecorder();
  received = receiver.received;
  await adapter.registerRecurrenceWebhooks(`${receiver.url}/webhooks/efi/acc_efi_rec`);
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await receiver?.close();
  certs?.cleanup();
});

let idRec: string;
let firstCycle: string;
let retriedCycle: string;

describe('Efí Pix Automático', () => {
  it('registers webhookrec and webhookcobr at our intake, with the secret', async () => {
    const reg = await adapter.createRecurrence(recurrence('sub_contract_hook', { firstAmount: 0 }));
    await control(`/__control/recs/${reg.providerRecurrenceId}/refuse`);
    const delivery = await until(async () => received.find((r) => r.query['ignorar'] === '/rec'), 5_000, 'a /rec delivery');
    expect(delivery.query['hmac']).toBe(WEBHOOK_SECRET);
  });

  it('journey 2: a recurrence QR only; the payer refuses it in the bank app', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_contract_j2', { firstAmount: 0, amount: undefined }));
    expect(rec).toMatchObject({ status: 'pending', providerStatus: 'CRIADA', cycles: 'ours' });
    // A recurrence-only BR Code (its location under /rec/), which pix-utils does not read.
    expect(rec.approval?.qrCode).toMatch(/^000201.*\/v2\/rec\//);
    expect(rec.approval?.qrCodeBase64).toMatch(/^iVBOR/);
    expect(await control(`/__control/recs/${rec.providerRecurrenceId}/refuse`)).toBe(200);
    expect(await adapter.getRecurrence(rec.providerRecurrenceId)).toMatchObject({ status: 'refused', providerStatus: 'REJEITADA' });
    expect((await adapter.getRecurrence(rec.providerRecurrenceId)).approval).toBeUndefined();
  });

  it('journey 3: one QR pays the first amount and approves; a repeated create finds the same recurrence', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_contract_j3'));
    expect(rec).toMatchObject({ status: 'pending', cycles: 'ours' });
    expect(hasError(parsePix(rec.approval?.qrCode ?? ''))).toBe(false);
    idRec = rec.providerRecurrenceId;
    expect((await adapter.createRecurrence(recurrence('sub_contract_j3'))).providerRecurrenceId).toBe(idRec);

    expect(rec.approvalChargeId).toBe(activationTxidFor('sub_contract_j3'));
    expect(await adapter.getCharge(rec.approvalChargeId as string)).toMatchObject({ status: 'pending', amount: 4990 });
    await payAtEmulator('efi', controlUrl, { client_id: CLIENT.client_id }, rec.approvalChargeId as string);
    expect(await adapter.getCharge(rec.approvalChargeId as string)).toMatchObject({ status: 'paid', amountPaid: 4990 });
    expect(await adapter.getRecurrence(idRec)).toMatchObject({ status: 'active', providerStatus: 'APROVADA' });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: idRec, status: 'active' });
  });

  it('a cycle charge is scheduled once per payment id and paid on its due date', async () => {
    const input = { providerRecurrenceId: idRec, paymentId: 'pay_contract_cycle_1', amount: 4990, dueDate: '2026-03-10', description: 'Março' };
    const cycle = await adapter.createCycleCharge(input);
    expect(cycle).toMatchObject({ providerRecurrenceId: idRec, status: 'scheduled', amount: 4990, dueDate: '2026-03-10', failedAttempts: 0 });
    expect(await adapter.getCycleCharge({ providerRecurrenceId: idRec, providerChargeId: cycle.providerChargeId })).toMatchObject({ providerStatus: 'ATIVA', nextAttemptDate: '2026-03-10' });
    firstCycle = cycle.providerChargeId;
    expect((await adapter.createCycleCharge(input)).providerChargeId).toBe(firstCycle);

    await clockTo('2026-03-10T12:00:00Z');
    expect(await control(`/__control/cobr/${firstCycle}/pay`)).toBe(200);
    const paid = await adapter.getCycleCharge({ providerRecurrenceId: idRec, providerChargeId: firstCycle });
    expect(paid).toMatchObject({ status: 'paid', providerStatus: 'CONCLUIDA', failedAttempts: 0 });
    expect(paid.endToEndId).toMatch(/^E/);
    await sawEvent({ type: 'cycle', providerChargeId: firstCycle, status: 'paid' });
  });

  it('a failed debit is retried per PERMITE_3R_7D, and paid on the retry', async () => {
    await clockTo('2026-04-01T12:00:00Z');
    const cycle = await adapter.createCycleCharge({ providerRecurrenceId: idRec, paymentId: 'pay_contract_cycle_2', amount: 4990, dueDate: '2026-04-10' });
    await clockTo('2026-04-10T12:00:00Z');
    expect(await control(`/__control/cobr/${cycle.providerChargeId}/fail`, { motivo: 'Saldo insuficiente' })).toBe(200);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: idRec, providerChargeId: cycle.providerChargeId })).toMatchObject({ status: 'retrying', failedAttempts: 1 });
    await sawEvent({ type: 'cycle', providerChargeId: cycle.providerChargeId, status: 'retrying' });

    const retried = await adapter.retryCycleCharge({ providerChargeId: cycle.providerChargeId, date: '2026-04-13' });
    expect(retried).toMatchObject({ status: 'retrying', failedAttempts: 1, nextAttemptDate: '2026-04-13' });
    await clockTo('2026-04-13T12:00:00Z');
    expect(await control(`/__control/cobr/${cycle.providerChargeId}/pay`)).toBe(200);
    expect(await adapter.getCycleCharge({ providerRecurrenceId: idRec, providerChargeId: cycle.providerChargeId })).toMatchObject({ status: 'paid', failedAttempts: 1 });
    retriedCycle = cycle.providerChargeId;
  });

  it('a paid cycle is refunded like any Pix: a devolução of the Pix its settled attempt received (a retry included)', async () => {
    const refundOf = async (txid: string, refundId: string, amount: number) => {
      const { endToEndId } = await adapter.getCycleCharge({ providerRecurrenceId: idRec, providerChargeId: txid });
      expect(endToEndId).toMatch(/^E/);
      return adapter.refundCharge({ providerPaymentId: txid, refundId, amount, reason: 'Cliente cancelou o plano', ...(endToEndId ? { endToEndId } : {}) });
    };
    // Devoluções settle on the Pix webhook (connect registers it; here only the recurrence ones were).
    await adapter.registerWebhook(`${receiver.url}/webhooks/efi/acc_efi_rec`);
    const partial = await refundOf(firstCycle, 're_contract_cycle_1', 1000);
    expect(partial).toMatchObject({ status: 'pending', amount: 1000 });
    // The same refund again (a lost answer): Efí's devolução with this id is the answer, nothing twice.
    expect(await refundOf(firstCycle, 're_contract_cycle_1', 1000)).toMatchObject({ providerRefundId: partial.providerRefundId, amount: 1000 });
    // More than is left of the 49.90 is refused by Efí (PixDevolucaoInvalida).
    await expect(refundOf(firstCycle, 're_contract_cycle_1b', 4000)).rejects.toMatchObject({ kind: 'rejected' });
    // The cycle paid on its retry: the retry's end-to-end id received the Pix.
    expect(await refundOf(retriedCycle, 're_contract_cycle_2', 4990)).toMatchObject({ status: 'pending', amount: 4990 });

    // Each devolução settles and is notified on the Pix webhook with the cobr's txid, as for a cob.
    const settled = (txid: string) =>
      until(
        async () =>
          received
            .filter((r) => r.query['ignorar'] === '/pix')
            .map((r) => (JSON.parse(r.rawBody.toString('utf8')) as { pix: { txid: string; devolucoes?: { status: string; valor: string }[] }[] }).pix[0])
            .find((pix) => pix?.txid === txid && pix.devolucoes?.[0]?.status === 'DEVOLVIDO'),
        5_000,
        `the devolução of ${txid} settled`,
      );
    expect((await settled(firstCycle))?.devolucoes?.[0]?.valor).toBe('10.00');
    expect((await settled(retriedCycle))?.devolucoes?.[0]?.valor).toBe('49.90');
    const notification = received.find((r) => r.query['ignorar'] === '/pix' && r.rawBody.toString('utf8').includes(retriedCycle)) as WebhookRequest;
    expect(adapter.parseWebhook(notification)).toMatchObject({ ok: true, providerPaymentIds: [retriedCycle] });
    // The intake reads the named txid back: a paid cobr answers as a paid Pix charge with its devoluções.
    expect(await adapter.getCharge(firstCycle)).toMatchObject({
      providerPaymentId: firstCycle,
      status: 'paid',
      amount: 4990,
      amountPaid: 4990,
      endToEndId: expect.stringMatching(/^E/),
      refunds: [{ providerRefundId: partial.providerRefundId, amount: 1000, status: 'succeeded' }],
    });
    // An unpaid cobr, and a txid nobody has, stay unknown to getCharge (cycles are read as cycle charges).
    await expect(adapter.getCharge('naoexiste0000000000000000000')).rejects.toMatchObject({ kind: 'not_found' });
    // A Pix that was never received is unknown to Efí.
    await expect(
      adapter.refundCharge({ providerPaymentId: firstCycle, refundId: 're_contract_cycle_x', amount: 100, endToEndId: 'E09089356202603101200abcdefghijk' }),
    ).rejects.toBeInstanceOf(ProviderError);
  });

  it('a retry outside the 7 days after the due date is refused', async () => {
    await clockTo('2026-05-01T12:00:00Z');
    const cycle = await adapter.createCycleCharge({ providerRecurrenceId: idRec, paymentId: 'pay_contract_cycle_3', amount: 4990, dueDate: '2026-05-11' });
    await clockTo('2026-05-11T12:00:00Z');
    expect(await control(`/__control/cobr/${cycle.providerChargeId}/fail`)).toBe(200);
    await expect(adapter.retryCycleCharge({ providerChargeId: cycle.providerChargeId, date: '2026-05-25' })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('a cycle charge answered 5xx may exist (a debit, like card): ambiguous; the repeat makes or finds the one charge', async () => {
    await clockTo('2026-06-01T12:00:00Z');
    const input = { providerRecurrenceId: idRec, paymentId: 'pay_contract_cycle_5', amount: 4990, dueDate: '2026-06-10' };
    expect(await control('/__control/faults', { client_id: CLIENT.client_id, error_rate: 1 })).toBe(200);
    const error = await adapter.createCycleCharge(input).catch((e: unknown) => e);
    emulator.state.faults.clear();
    expect(error).toMatchObject({ kind: 'ambiguous', normalizedCode: 'provider_timeout' });
    const cycle = await adapter.createCycleCharge(input);
    expect(cycle).toMatchObject({ status: 'scheduled', dueDate: '2026-06-10' });
    expect((await adapter.createCycleCharge(input)).providerChargeId).toBe(cycle.providerChargeId);
  });

  it('cancel stops the recurrence: canceled, and no further cycle charge is accepted', async () => {
    expect(await adapter.cancelRecurrence(idRec)).toMatchObject({ status: 'canceled', providerStatus: 'CANCELADA' });
    expect(await adapter.cancelRecurrence(idRec)).toMatchObject({ status: 'canceled' });
    const refused = await adapter.createCycleCharge({ providerRecurrenceId: idRec, paymentId: 'pay_contract_cycle_4', amount: 4990, dueDate: '2026-06-10' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ kind: 'rejected', normalizedCode: 'provider_rejected' });
    await sawEvent({ type: 'recurrence', providerRecurrenceId: idRec, status: 'canceled' });
  });

  it('canceling a pending journey-3 recurrence removes its immediate charge', async () => {
    const rec = await adapter.createRecurrence(recurrence('sub_contract_j3_cancel', { startDate: '2026-06-10' }));
    expect(await adapter.cancelRecurrence(rec.providerRecurrenceId)).toMatchObject({ status: 'canceled' });
    await expect(payAtEmulator('efi', controlUrl, { client_id: CLIENT.client_id }, activationTxidFor('sub_contract_j3_cancel'))).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('an unknown recurrence is not_found; a delivery without our secret is refused', async () => {
    await expect(adapter.getRecurrence('RR090893562026050100000000000')).rejects.toMatchObject({ kind: 'not_found' });
    const delivery = received.find((r) => r.query['ignorar'] === '/cobr');
    expect(delivery).toBeDefined();
    expect(adapter.parseRecurrenceWebhook({ ...(delivery as WebhookRequest), query: { hmac: 'wrong' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });
});

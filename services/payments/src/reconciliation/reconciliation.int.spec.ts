import { status as GrpcStatus } from '@grpc/grpc-js';
import { common, providers as providersContract, reconciliationRunObjectSchema } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, EventBus, newId, OutboxRelay, RpcError, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerFailedCreationModel } from '../db/failed-creation.model';
import { registerIdempotencyRecordModel } from '../db/idempotency-record.model';
import { IdempotencyGuard } from '../db/idempotency.guard';
import { registerPaymentModel, type PaymentDoc, type PaymentModel } from '../db/payment.model';
import { PaymentStore } from '../db/payment.store';
import { PaymentLinks } from '../domain/payment-links';
import { ChargeStateApplier } from '../orchestration/apply-charge-state';
import { CycleChargeApplier } from '../orchestration/cycle-charge-state';
import { PaymentRefunds } from '../orchestration/refund-payment';
import { PaymentSync } from '../orchestration/sync-payment';
import { publicRunObject } from './reconciliation.mapper';
import { ReconciliationRuns } from './reconciliation-runs';
import { reconciliationHandlers } from './reconciliation.handlers';
import { registerReconciliationModels, type ReconciliationModels, type RunDoc } from './reconciliation.model';

jest.setTimeout(90_000);
const logger = pino({ level: 'silent' });
const { ChargeStatus } = providersContract;
const MERCHANT = 'acct_recon';

/** A charge as the provider's own records hold it (the stand-in provider below). */
interface ProviderCharge {
  id: string;
  status: 'pending' | 'paid' | 'failed' | 'canceled';
  amount: number;
  refunded: number;
  fee: number | null;
  reference: string;
  /** Left out of the list (created at the period's edge by the provider's clock), still found by id. */
  unlisted?: boolean;
}

/**
 * The providers service at its gRPC seam, in-process, as payments' other int specs reach it (they
 * all use in-process stand-ins of the providers client): ListAccounts, ListCharges in pages of
 * three (cursor = offset), GetCharge (not_found on provider_payment_id as the real service
 * answers). Everything else (store, broker, outbox, sync of payments) is the real thing.
 */
class FakeProviders {
  charges = new Map<string, ProviderCharge[]>();
  listCalls: Array<{ account: string; cursor: string }> = [];
  /** Errors the next list calls of an account answer, in order. */
  listFailures = new Map<string, Error[]>();
  /** Notes a page answers (the last page of the account), as an Efí app without the API Cobranças does. */
  listNotes = new Map<string, string[]>();
  /** ListAccounts answers this error while set. */
  accountsFailure: Error | null = null;
  readonly pageSize = 3;

  client(): RpcClient<typeof providersContract.ProvidersServiceService> {
    const listAccounts = async () => {
      if (this.accountsFailure) throw this.accountsFailure;
      return accountList;
    };
    const accountList = {
      accounts: [
        { id: 'pa_asaas', provider: 'asaas' },
        { id: 'pa_nolist', provider: 'woovi' },
      ] as providersContract.ProviderAccount[],
    };
    const listCharges = async (request: providersContract.ListChargesRequest) => {
      const account = request.account!.account_id;
      this.listCalls.push({ account, cursor: request.cursor });
      const failure = this.listFailures.get(account)?.shift();
      if (failure) throw failure;
      if (account === 'pa_nolist') return { charges: [], next_cursor: '', supported: false };
      const listed = (this.charges.get(account) ?? []).filter((charge) => !charge.unlisted);
      const offset = Number(request.cursor || '0');
      const page = listed.slice(offset, offset + this.pageSize);
      return {
        supported: true,
        next_cursor: offset + this.pageSize < listed.length ? String(offset + this.pageSize) : '',
        notes: offset + this.pageSize < listed.length ? [] : (this.listNotes.get(account) ?? []),
        charges: page.map((charge) => ({
          provider_payment_id: charge.id,
          status: charge.status,
          amount: charge.amount,
          amount_refunded: charge.refunded,
          ...(charge.fee !== null ? { fee: charge.fee } : {}),
          method: 'pix',
          created_at: new Date().toISOString(),
          reference: charge.reference,
        })),
      };
    };
    const getCharge = async (request: providersContract.GetChargeRequest) => {
      const ref = request.ref!;
      const charge = (this.charges.get(ref.account_id) ?? []).find((candidate) => candidate.id === ref.provider_payment_id);
      if (!charge) throw new RpcError('not_found', GrpcStatus.NOT_FOUND, { param: 'provider_payment_id' });
      const status = { pending: ChargeStatus.CHARGE_STATUS_PENDING, paid: ChargeStatus.CHARGE_STATUS_PAID, failed: ChargeStatus.CHARGE_STATUS_FAILED, canceled: ChargeStatus.CHARGE_STATUS_CANCELED }[charge.status];
      const answer: providersContract.Charge = {
        provider: 'asaas',
        account_id: ref.account_id,
        provider_payment_id: charge.id,
        status,
        amount: charge.amount,
        amount_paid: charge.status === 'paid' ? charge.amount : 0,
        ...(charge.fee !== null ? { provider_fee: charge.fee } : {}),
        ...(charge.status === 'paid' ? { paid_at: new Date().toISOString(), end_to_end_id: `E2E${charge.id}` } : {}),
        refunds: [],
      };
      return { charge: answer };
    };
    return { listAccounts, listCharges, getCharge } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;
  }
}

describe('reconciliation runs against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let outbox: OutboxRelay;
  let models: ReconciliationModels;
  let paymentModel: PaymentModel;
  let sync: PaymentSync;
  const provider = new FakeProviders();
  const published: EventEnvelope[] = [];
  const ids: Record<string, string> = {};
  const periodStart = new Date(Date.now() - 3 * 3_600_000);
  const periodEnd = new Date(Date.now() - 60_000);
  const scope = { merchantId: MERCHANT, mode: 'test' as const, sourceKeyId: 'key_full' };

  const runs = (): ReconciliationRuns => new ReconciliationRuns({ models, payments: paymentModel, providers: provider.client(), sync: (id, s, r) => sync.sync(id, s, r), outbox, logger });
  const read = async (id: string) => (await models.runs.findById(id).lean<RunDoc>()) as RunDoc;
  /** Works the run slice by slice (one tick is one slice here: nothing else is due) until it ends. */
  const runToEnd = async (instance: ReconciliationRuns, id: string): Promise<RunDoc> => {
    for (let slice = 0; slice < 50; slice += 1) {
      const run = await read(id);
      if (run.status === 'completed' || run.status === 'failed') return run;
      await instance.worker.tick();
    }
    throw new Error('run did not end in 50 slices');
  };
  const waitFor = async (check: () => boolean) => {
    for (let waited = 0; waited < 10_000 && !check(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(check()).toBe(true);
  };

  const payment = async (name: string, fields: Partial<PaymentDoc>): Promise<void> => {
    const id = newId('payment');
    ids[name] = id;
    const at = new Date(periodStart.getTime() + 3_600_000);
    await paymentModel.create({
      _id: id, merchant_id: MERCHANT, mode: 'test', source_key_id: 'key_full', method: 'pix', status: 'succeeded', amount: 1_000, amount_refunded: 0,
      currency: 'BRL', fee: 50, net: 950, description: 'Pedido', customer: { name: 'Ana' }, provider: 'asaas', provider_account_id: 'pa_asaas',
      provider_payment_id: '', attempts: [], events: [], idempotency_key: '', created_at: at, updated_at: at, ...fields,
    } as unknown as PaymentDoc);
  };

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('recon');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['reconciliation_run.*'] }, async (event) => void published.push(event));
    outbox = new OutboxRelay({ bus, logger });
    paymentModel = registerPaymentModel(db);
    models = registerReconciliationModels(db);
    const links = new PaymentLinks('http://pay.example.com', 'http://api.example.com');
    const store = new PaymentStore(paymentModel, registerFailedCreationModel(db), outbox, links);
    await ensureIndexes(db);
    const providersClient = provider.client();
    const refunds = new PaymentRefunds({ store, idempotency: new IdempotencyGuard(registerIdempotencyRecordModel(db), 3_600_000, 60_000), providers: providersClient, logger, providerCallDeadlineMs: 5_000 });
    const charges = new ChargeStateApplier(store, refunds, logger);
    sync = new PaymentSync(store, providersClient, charges, new CycleChargeApplier(store, charges), refunds, logger);

    // Our side and the provider's side of one account, one case each.
    await payment('matched', { status: 'succeeded', amount: 1_000, fee: 50, provider_payment_id: 'ch_matched' });
    await payment('status', { status: 'pending', amount: 2_000, fee: 50, provider_payment_id: 'ch_status' });
    await payment('amount', { status: 'succeeded', amount: 3_000, fee: 50, provider_payment_id: 'ch_amount' });
    await payment('refund', { status: 'succeeded', amount: 4_000, fee: 50, provider_payment_id: 'ch_refund' });
    await payment('missing', { status: 'succeeded', amount: 5_000, fee: 50, provider_payment_id: 'ch_missing' });
    await payment('edge', { status: 'succeeded', amount: 6_000, fee: 50, provider_payment_id: 'ch_edge' });
    // A Pix Automático debit that failed (OVERDUE, listed as pending): read through its recurrence, never a finding.
    await payment('cycle', { status: 'failed', amount: 900, fee: 0, provider_payment_id: 'ch_cycle', provider_recurrence_id: 'rcr_1' });
    // Charged at another account after its try here failed over: the try's charge, canceled, agrees.
    await payment('failedover', {
      status: 'succeeded', amount: 1_200, provider_account_id: 'pa_other', provider_payment_id: 'ch_other',
      attempts: [{ id: 'att_1', provider_account_id: 'pa_asaas', provider: 'asaas', outcome: 'uncertain', latency_ms: 3_000, created_at: periodStart }] as never,
    });
    // Canceled here, and the provider deleted the unpaid charge (Woovi, Asaas): both agree, no finding.
    await payment('gone', { status: 'canceled', amount: 1_500, fee: 0, provider_payment_id: 'ch_gone' });
    // A charge whose answer was lost (no provider id here): its reference names the payment.
    await payment('byref', { status: 'pending', amount: 7_000, fee: 50, provider_payment_id: '' });
    // Outside the period: never expected at the provider.
    await payment('before', { status: 'succeeded', amount: 8_000, provider_payment_id: 'ch_before', created_at: new Date(periodStart.getTime() - 60_000) });
    provider.charges.set('pa_asaas', [
      { id: 'ch_matched', status: 'paid', amount: 1_000, refunded: 0, fee: 50, reference: '' },
      { id: 'ch_status', status: 'paid', amount: 2_000, refunded: 0, fee: null, reference: '' },
      { id: 'ch_amount', status: 'paid', amount: 3_100, refunded: 0, fee: 50, reference: '' },
      { id: 'ch_refund', status: 'paid', amount: 4_000, refunded: 1_000, fee: 50, reference: '' },
      { id: 'ch_byref', status: 'pending', amount: 7_000, refunded: 0, fee: null, reference: `${ids.byref}:pa_asaas:1` },
      { id: 'ch_dashboard', status: 'paid', amount: 990, refunded: 0, fee: 10, reference: '' },
      { id: 'ch_cycle', status: 'pending', amount: 900, refunded: 0, fee: null, reference: '' },
      { id: 'ch_orphan', status: 'canceled', amount: 1_200, refunded: 0, fee: null, reference: `${ids.failedover}:pa_asaas:1` },
      // Listed twice (the list's offsets shifted): one charge all the same.
      { id: 'ch_matched', status: 'paid', amount: 1_000, refunded: 0, fee: 50, reference: '' },
      { id: 'ch_edge', status: 'paid', amount: 6_000, refunded: 0, fee: 50, reference: '', unlisted: true },
    ]);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });

  const expectedAsaas = {
    provider_account_id: 'pa_asaas', provider: 'asaas', status: 'done', error: '',
    counts: { listed: 8, matched: 5, missing_at_provider: 1, unknown_to_orquestra: 1, status_differences: 1, amount_differences: 1, fee_differences: 0, refund_differences: 1, fixed: 0 },
  };

  let firstRunId = '';

  it('a run end to end: matched, status, amount, refund, unknown and missing, with both sides; an account that cannot list is unsupported; the event is published', async () => {
    const instance = runs();
    const created = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
    firstRunId = created._id;
    expect(created).toMatchObject({ status: 'queued', accounts: null });
    expect(created._id).toMatch(/^rec_/);
    const run = await runToEnd(instance, created._id);
    expect(run.status).toBe('completed');
    expect(run.completed_at).toBeInstanceOf(Date);
    expect(run.due_at).toBeNull();
    expect(run.accounts).toEqual([
      expect.objectContaining(expectedAsaas),
      expect.objectContaining({ provider_account_id: 'pa_nolist', provider: 'woovi', status: 'unsupported' }),
    ]);

    const findings = await models.findings.find({ run_id: run._id }).lean();
    const byKind = Object.fromEntries(findings.map((finding) => [finding.kind, finding]));
    expect(findings).toHaveLength(5);
    expect(findings.some((finding) => finding.provider_payment_id === 'ch_orphan')).toBe(false);
    expect(byKind.status_difference).toMatchObject({ payment_id: ids.status, provider_payment_id: 'ch_status', ours: { status: 'pending' }, theirs: { status: 'paid' }, fix_result: '' });
    expect(byKind.amount_difference).toMatchObject({ payment_id: ids.amount, ours: { amount: '3000' }, theirs: { amount: '3100' } });
    expect(byKind.refund_difference).toMatchObject({ payment_id: ids.refund, ours: { amount_refunded: '0' }, theirs: { amount_refunded: '1000' } });
    expect(byKind.unknown_to_orquestra).toMatchObject({ payment_id: '', provider_payment_id: 'ch_dashboard', ours: {}, theirs: { status: 'paid', amount: '990', fee: '10' } });
    expect(byKind.missing_at_provider).toMatchObject({ payment_id: ids.missing, provider_payment_id: 'ch_missing', ours: { status: 'succeeded', amount: '5000' }, theirs: {} });
    // The fee Asaas does not report before payment (null) is not compared; the unlisted charge at the edge was found by id.
    expect(findings.some((finding) => [ids.edge, ids.byref, ids.before, ids.gone, ids.cycle, ids.failedover].includes(finding.payment_id))).toBe(false);

    await waitFor(() => published.some((event) => (event.data.object as { id: string }).id === run._id));
    const events = published.filter((event) => (event.data.object as { id: string }).id === run._id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'reconciliation_run.completed', merchant_id: MERCHANT, mode: 'test' });
    const object = reconciliationRunObjectSchema.parse(events[0]!.data.object) as Record<string, unknown>;
    expect(object).toMatchObject({ id: run._id, object: 'reconciliation_run', status: 'completed', start: periodStart.toISOString(), end: periodEnd.toISOString() });
    expect(object.counts).toEqual(expectedAsaas.counts);
    // The relay removes the event from the outbox after the broker confirmed it: a moment after
    // the subscriber may already have it.
    let stored = await read(run._id);
    for (let waited = 0; waited < 15_000 && stored.outbox.length > 0; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stored = await read(run._id);
    }
    expect(stored.outbox).toEqual([]);
  });

  it('resumes after a crash mid-run at the page it was on (a new worker does not list the pages already done)', async () => {
    const first = runs();
    const created = await first.create(scope, { start: periodStart, end: periodEnd }, false);
    await first.worker.tick(); // the accounts
    provider.listCalls = [];
    await first.worker.tick(); // page one of pa_asaas
    expect(provider.listCalls).toEqual([{ account: 'pa_asaas', cursor: '' }]);
    expect((await read(created._id)).accounts![0]).toMatchObject({ status: 'running', phase: 'listing', cursor: '3' });
    await first.worker.stop(); // the process dies here

    const second = runs();
    const run = await runToEnd(second, created._id);
    expect(provider.listCalls.filter((call) => call.account === 'pa_asaas')).toEqual([
      { account: 'pa_asaas', cursor: '' },
      { account: 'pa_asaas', cursor: '3' },
      { account: 'pa_asaas', cursor: '6' },
    ]);
    expect(run.status).toBe('completed');
    expect(run.accounts![0]).toMatchObject(expectedAsaas);
  });

  it('a page done again (its slice’s write lost in a crash) does not count twice', async () => {
    const instance = runs();
    const created = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
    await instance.worker.tick(); // the accounts
    const beforePage = await read(created._id);
    await instance.worker.tick(); // page one recorded...
    // ...but its run write never happened: the run is back as it was before the page, due now.
    await models.runs.replaceOne({ _id: created._id }, { ...beforePage, due_at: new Date() });
    await instance.worker.tick(); // page one again
    expect(provider.listCalls.slice(-2)).toEqual([{ account: 'pa_asaas', cursor: '' }, { account: 'pa_asaas', cursor: '' }]);
    const run = await runToEnd(instance, created._id);
    expect(run.accounts![0]).toMatchObject(expectedAsaas);
    expect(await models.findings.countDocuments({ run_id: run._id })).toBe(5);
    expect(await models.seen.countDocuments({ run_id: run._id, source: 'list' })).toBe(8);
    await waitFor(() => published.some((event) => (event.data.object as { id: string }).id === run._id));
  });

  it('a started worker works a new run to the end by itself, slice after slice, without waiting for polls', async () => {
    const instance = new ReconciliationRuns({ models, payments: paymentModel, providers: provider.client(), sync: (id, s, r) => sync.sync(id, s, r), outbox, logger, pollIntervalMs: 60_000 });
    instance.worker.start();
    try {
      const created = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
      let run = await read(created._id);
      for (let waited = 0; waited < 15_000 && run.status !== 'completed'; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        run = await read(created._id);
      }
      expect(run.status).toBe('completed');
      expect(run.accounts![0]).toMatchObject(expectedAsaas);
    } finally {
      await instance.worker.stop();
    }
  });

  it('a page that notes what the list could not tell leaves the account done with the note, once, in the run and its event', async () => {
    const instance = runs();
    const note = 'Boletos não conferidos: a Efí recusou as credenciais desta conta na API Cobranças.';
    provider.listNotes.set('pa_asaas', [note]);
    const created = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
    for (let slice = 0; slice < 20 && (await read(created._id)).status !== 'completed'; slice += 1) await instance.worker.tick();
    const run = await read(created._id);
    expect(run.status).toBe('completed');
    expect(run.accounts![0]).toMatchObject({ ...expectedAsaas, status: 'done', notes: [note] });
    expect(run.accounts![1]).toMatchObject({ status: 'unsupported', notes: [] });
    expect(publicRunObject(run).accounts).toEqual([expect.objectContaining({ provider_account_id: 'pa_asaas', notes: [note] }), expect.objectContaining({ notes: [] })]);

    provider.listNotes.clear();
  });

  it('a list that fails is tried again later; one that cannot succeed fails its account with why, and the run still completes', async () => {
    const instance = runs();
    const dueNow = (id: string) => models.runs.updateOne({ _id: id }, { $set: { due_at: new Date() } });

    const retried = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
    provider.listFailures.set('pa_asaas', [new RpcError('provider_unavailable', GrpcStatus.UNAVAILABLE, {})]);
    await instance.worker.tick(); // the accounts
    await instance.worker.tick(); // the failed page
    const waiting = await read(retried._id);
    expect(waiting.accounts![0]).toMatchObject({ status: 'pending', tries: 1, cursor: '' });
    expect(waiting.due_at!.getTime()).toBeGreaterThan(Date.now() + 1_000);
    expect(await instance.worker.tick()).toBe(0); // not due yet
    await dueNow(retried._id);
    expect((await runToEnd(instance, retried._id)).accounts![0]).toMatchObject(expectedAsaas);

    const refused = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
    provider.listFailures.set('pa_asaas', [new RpcError('invalid_credentials', GrpcStatus.UNAUTHENTICATED, {})]);
    const ended = await runToEnd(instance, refused._id);
    expect(ended.status).toBe('completed');
    expect(ended.accounts).toEqual([
      expect.objectContaining({ provider_account_id: 'pa_asaas', status: 'failed', error: expect.stringContaining('credenciais') }),
      expect.objectContaining({ provider_account_id: 'pa_nolist', status: 'unsupported' }),
    ]);

    const blind = await instance.create(scope, { start: periodStart, end: periodEnd }, false);
    provider.accountsFailure = new RpcError('service_unavailable', GrpcStatus.UNAVAILABLE, {});
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await dueNow(blind._id);
      await instance.worker.tick();
    }
    provider.accountsFailure = null;
    const failed = await read(blind._id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('contas de provedor'), due_at: null, accounts: [] });
    await waitFor(() => published.some((event) => (event.data.object as { id: string }).id === blind._id));
    expect(published.find((event) => (event.data.object as { id: string }).id === blind._id)?.data.object).toMatchObject({ status: 'failed' });
  });

  it('the gRPC handlers: full keys only, the period checked, runs newest first, findings paged and filtered, merchant and mode scoped', async () => {
    const handlers = reconciliationHandlers(runs());
    const caller: common.Caller = { merchant_id: MERCHANT, mode: common.Mode.MODE_TEST, key_id: 'key_full', restricted: false, request_id: '' };
    const context = {} as never;
    await expect(handlers.createRun({ caller: { ...caller, restricted: true }, start: periodStart.toISOString(), end: periodEnd.toISOString(), fix: false }, context)).rejects.toMatchObject({
      code: 'restricted_key',
    });
    await expect(handlers.createRun({ caller, start: periodEnd.toISOString(), end: periodStart.toISOString(), fix: false }, context)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'start' });
    const before = await models.runs.countDocuments();
    await expect(handlers.createRun({ caller, start: periodStart.toISOString(), end: new Date(Date.now() + 3_600_000).toISOString(), fix: false }, context)).rejects.toBeInstanceOf(AppError);
    expect(await models.runs.countDocuments()).toBe(before);

    const { runs: page, has_more } = (await handlers.listRuns({ caller, limit: 2, starting_after: '' }, context));
    expect(has_more).toBe(true);
    expect(page).toHaveLength(2);
    expect(page[0]!.id > page[1]!.id).toBe(true);
    const rest = await handlers.listRuns({ caller, limit: 100, starting_after: page[1]!.id }, context);
    expect(rest.runs.map((run) => run.id)).toContain(firstRunId);
    await expect(handlers.listRuns({ caller, limit: 101, starting_after: '' }, context)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'limit' });

    const { run } = await handlers.getRun({ caller, run_id: firstRunId }, context);
    expect(run).toMatchObject({ id: firstRunId, status: 'completed', mode: common.Mode.MODE_TEST, start: periodStart.toISOString() });
    expect(run!.accounts[0]).toMatchObject({ provider_account_id: 'pa_asaas', status: 'done', listed: 8, matched: 5, missing_at_provider: 1 });
    await expect(handlers.getRun({ caller: { ...caller, mode: common.Mode.MODE_LIVE }, run_id: firstRunId }, context)).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    await expect(handlers.getRun({ caller: { ...caller, merchant_id: 'acct_other' }, run_id: firstRunId }, context)).rejects.toMatchObject({ code: 'not_found', param: 'id' });

    const first = await handlers.listFindings({ caller, run_id: firstRunId, limit: 3, starting_after: '', kind: '' }, context);
    expect(first.findings).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const second = await handlers.listFindings({ caller, run_id: firstRunId, limit: 3, starting_after: first.findings[2]!.id, kind: '' }, context);
    expect(second.findings).toHaveLength(2);
    expect(second.has_more).toBe(false);
    expect(new Set([...first.findings, ...second.findings].map((finding) => finding.kind)).size).toBe(5);
    const unknown = await handlers.listFindings({ caller, run_id: firstRunId, limit: 0, starting_after: '', kind: 'unknown_to_orquestra' }, context);
    expect(unknown.findings).toEqual([expect.objectContaining({ kind: 'unknown_to_orquestra', provider_payment_id: 'ch_dashboard', payment_id: '', run_id: firstRunId })]);
    await expect(handlers.listFindings({ caller, run_id: firstRunId, limit: 0, starting_after: '', kind: 'other' }, context)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'kind' });
    await expect(handlers.listFindings({ caller, run_id: firstRunId, limit: 1001, starting_after: '', kind: '' }, context)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    await expect(handlers.listFindings({ caller, run_id: 'rec_nope', limit: 0, starting_after: '', kind: '' }, context)).rejects.toMatchObject({ code: 'not_found', param: 'id' });
  });

  it('fix: true resolves a status difference by the payment’s own sync and records it', async () => {
    const instance = runs();
    const created = await instance.create(scope, { start: periodStart, end: periodEnd }, true);
    const run = await runToEnd(instance, created._id);
    expect(run.fix).toBe(true);
    expect(run.accounts![0]!.counts).toEqual({ ...expectedAsaas.counts, fixed: 1 });
    const finding = await models.findings.findOne({ run_id: run._id, kind: 'status_difference' }).lean();
    expect(finding).toMatchObject({ payment_id: ids.status, fix_result: 'sincronizado: succeeded', fixed: true });
    const synced = await paymentModel.findById(ids.status).lean<PaymentDoc>();
    expect(synced).toMatchObject({ status: 'succeeded', end_to_end_id: 'E2Ech_status' });
    // Other differences are reported, never "fixed".
    expect(await models.findings.countDocuments({ run_id: run._id, fix_result: { $ne: '' } })).toBe(1);
  });
});

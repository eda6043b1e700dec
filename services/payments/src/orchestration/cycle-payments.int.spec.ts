import { common, PROVIDER_CYCLE_CHARGE_UPDATED, providers as providersContract, type payments, type ProviderCycleChargeUpdated } from '@orquestra/contracts';
import { connectDatabase, ensureIndexes, EventBus, GrpcStatus, newId, OutboxRelay, RpcError, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerCustomerModel } from '../db/customer.model';
import { CustomerStore } from '../db/customer.store';
import { registerFailedCreationModel } from '../db/failed-creation.model';
import { registerIdempotencyRecordModel } from '../db/idempotency-record.model';
import { IdempotencyGuard } from '../db/idempotency.guard';
import { registerPaymentModel, type PaymentDoc, type PaymentModel } from '../db/payment.model';
import { PaymentStore } from '../db/payment.store';
import { PaymentLinks } from '../domain/payment-links';
import { startProviderCycleChargeConsumer } from '../events/provider-cycle-charge.consumer';
import { createPaymentExpiryWorker } from '../jobs/payment-expiry.worker';
import { ChargeStateApplier } from './apply-charge-state';
import { PaymentCancellation } from './cancel-payment';
import { CycleChargeApplier, CycleChargeUpdates } from './cycle-charge-state';
import { CyclePayments } from './cycle-payments';
import { PaymentRefunds } from './refund-payment';
import { PaymentSimulation } from './simulate-payment';
import { PaymentSync } from './sync-payment';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });
const jitter = () => new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40));

/**
 * Pix Automático cycles as payments against the real store and broker: creation through
 * CreateCyclePayment, the cycle charge reports over RabbitMQ, sync, simulate, refunds and the
 * expiry worker. The providers service is an in-process stand-in at its gRPC seam (idempotent on
 * the payment id like CreateCycleCharge, and counting what it is sent); the chain through the
 * real providers service and the emulators is the subscriptions e2e suite.
 */
describe('cycle payments (real store and broker)', () => {
  let db: Connection;
  let bus: EventBus;
  let paymentModel: PaymentModel;
  let store: PaymentStore;
  let cycles: CyclePayments;
  let readingBack: CyclePayments;
  const readBacks: string[] = [];
  let sync: PaymentSync;
  let simulation: PaymentSimulation;
  let cancellation: PaymentCancellation;
  let refunds: PaymentRefunds;
  let updates: CycleChargeUpdates;
  const published: EventEnvelope[] = [];
  const sent: providersContract.CreateCycleChargeRequest[] = [];
  const simulated: providersContract.SimulateCycleChargeRequest[] = [];
  const refundCalls: providersContract.RefundChargeRequest[] = [];
  /** The provider's charges, one per payment id (its idempotency key). */
  const providerCharges = new Map<string, providersContract.CycleCharge>();
  /** The next CreateCycleCharge answers: null for the charge, else the error thrown. */
  const nextAnswers: Array<Error | null> = [];
  let cycleChargeRead: providersContract.CycleCharge | undefined;
  let plainChargeRead: providersContract.Charge | undefined;
  let refundAnswer: providersContract.RefundStatus = providersContract.RefundStatus.REFUND_STATUS_SUCCEEDED;

  const scope = { merchantId: 'acct_cycles', mode: 'test' as const };
  const providersClient = {
    getAccount: async (request: providersContract.GetAccountRequest) => {
      if (request.account_id !== 'pa_efi') throw new RpcError('not_found', GrpcStatus.NOT_FOUND, { param: 'account_id' });
      return { account: { id: 'pa_efi', provider: 'efi', fees: [{ method: 'pix', percent_bps: 0, fixed: 50 }] } };
    },
    createCycleCharge: async (request: providersContract.CreateCycleChargeRequest) => {
      sent.push(request);
      await jitter();
      const answer = nextAnswers.shift();
      if (answer) throw answer;
      let charge = providerCharges.get(request.payment_id);
      if (!charge) {
        charge = {
          provider_charge_id: `cobr${request.payment_id.replace(/_/g, '')}`, provider_recurrence_id: request.provider_recurrence_id, status: 'scheduled',
          provider_status: 'ATIVA', amount: request.amount, due_date: request.due_date, failed_attempts: 0,
        };
        providerCharges.set(request.payment_id, charge);
      }
      return { charge };
    },
    getCycleCharge: async () => ({ charge: cycleChargeRead }),
    // The plain charge API: Efí answers a paid cobr's txid as its Pix, refunds included.
    getCharge: async () => {
      if (!plainChargeRead) throw new RpcError('not_found', GrpcStatus.NOT_FOUND, { param: 'provider_payment_id' });
      return { charge: plainChargeRead };
    },
    simulateCycleCharge: async (request: providersContract.SimulateCycleChargeRequest) => {
      simulated.push(request);
      // As the sandbox does: the debit is made and reported (webhook → providers → the bus).
      await report({ provider_charge_id: request.provider_charge_id, status: 'paid', end_to_end_id: `E2E${request.provider_charge_id}` });
      return {};
    },
    refundCharge: async (request: providersContract.RefundChargeRequest) => {
      refundCalls.push(request);
      const refund: providersContract.ProviderRefund = {
        provider_refund_id: `D${request.refund_key}`, refund_key: request.refund_key, amount: request.amount, status: refundAnswer,
        failure_code: '', failure_reason: '', reason: request.reason, created_at: new Date().toISOString(),
      };
      return { refund };
    },
    cancelCharge: async () => {
      throw new Error('a cycle charge is never canceled through the charge API');
    },
  } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;

  const cycleRequest = (overrides: Partial<payments.CreateCyclePaymentRequest> = {}): payments.CreateCyclePaymentRequest => ({
    merchant_id: scope.merchantId, mode: common.Mode.MODE_TEST, payment_id: newId('payment'), subscription_id: 'sub_gold', cycle: 1,
    provider_account_id: 'pa_efi', provider_recurrence_id: 'RN0000000020261201recurrence1', amount: 1990, due_date: '2026-12-10',
    description: 'Plano ouro', customer: { name: 'Ana', document: '12345678909' }, metadata: { plan: 'gold' }, tracking: {}, source_key_id: 'key_sub',
    ...overrides,
  });
  const read = async (id: string) => (await paymentModel.findById(id).lean<PaymentDoc>()) as PaymentDoc;
  const publishedFor = (paymentId: string, type: string) => published.filter((e) => e.type === type && (e.data.object as { id?: string }).id === paymentId);
  async function report(overrides: Partial<ProviderCycleChargeUpdated> & Pick<ProviderCycleChargeUpdated, 'provider_charge_id' | 'status'>): Promise<void> {
    const object: ProviderCycleChargeUpdated = {
      account_id: 'pa_efi', provider: 'efi', provider_recurrence_id: 'RN0000000020261201recurrence1', provider_status: 'x', amount: 1990,
      due_date: '2026-12-10', failed_attempts: 0, via: 'webhook', ...overrides,
    };
    await bus.publish({ id: newId('event'), type: PROVIDER_CYCLE_CHARGE_UPDATED, created: Math.floor(Date.now() / 1000), merchant_id: scope.merchantId, mode: 'test', source: null, data: { object: object as unknown as Record<string, unknown> } });
  }
  async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const withStatus = (id: string, status: string) => async () => {
    const doc = await read(id);
    return doc.status === status ? doc : undefined;
  };

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('paycycles');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['payment.*', 'refund.*'] }, async (event) => void published.push(event));
    const outbox = new OutboxRelay({ bus, logger });
    paymentModel = registerPaymentModel(db);
    store = new PaymentStore(paymentModel, registerFailedCreationModel(db), outbox, new PaymentLinks('http://pay.example.com', 'http://api.example.com'), {
      customers: new CustomerStore(registerCustomerModel(db)),
    });
    await ensureIndexes(db);
    refunds = new PaymentRefunds({
      store, idempotency: new IdempotencyGuard(registerIdempotencyRecordModel(db), 3_600_000, 60_000), providers: providersClient, logger, providerCallDeadlineMs: 5_000,
    });
    const charges = new ChargeStateApplier(store, refunds, logger);
    const cycleCharges = new CycleChargeApplier(store, charges);
    cycles = new CyclePayments({ store, providers: providersClient, cycleCharges, logger, providerCallDeadlineMs: 5_000 });
    // As main.ts wires it (PaymentSync.sync), here the provider's answer is that the charge was paid
    // already, or that it cannot be asked now.
    readingBack = new CyclePayments({
      store,
      providers: providersClient,
      cycleCharges,
      logger,
      providerCallDeadlineMs: 5_000,
      readBack: async (payment) => {
        readBacks.push(payment._id);
        if (payment.provider_payment_id === 'unreachable') throw new Error('provider down');
        await cycleCharges.apply(payment, { status: 'paid', end_to_end_id: `E2E${payment._id}` });
        return read(payment._id);
      },
    });
    sync = new PaymentSync(store, providersClient, charges, cycleCharges, refunds, logger);
    simulation = new PaymentSimulation(store, providersClient);
    cancellation = new PaymentCancellation(store, providersClient, charges, { cancel: async () => null });
    updates = new CycleChargeUpdates(store, cycleCharges);
    await startProviderCycleChargeConsumer(bus, updates, logger);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });

  it('concurrent calls with one payment id make one payment and send one charge', async () => {
    const request = cycleRequest();
    const answers = await Promise.all(Array.from({ length: 8 }, () => cycles.create(request, 'req')));
    expect(new Set(answers.map((answer) => answer.payment._id))).toEqual(new Set([request.payment_id]));
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(sent.filter((s) => s.payment_id === request.payment_id)).toHaveLength(1);
    expect(await paymentModel.countDocuments({ _id: request.payment_id })).toBe(1);

    const stored = await read(request.payment_id);
    expect(stored).toMatchObject({
      status: 'pending', method: 'pix', provider: 'efi', provider_account_id: 'pa_efi', provider_payment_id: `cobr${request.payment_id.replace(/_/g, '')}`,
      subscription_id: 'sub_gold', cycle: 1, due_date: '2026-12-10', provider_recurrence_id: 'RN0000000020261201recurrence1',
      next_action: { type: 'none' }, expires_at: null, due_at: null, cycle_charge_until: null, fee: 50, net: 1940, source_key_id: 'key_sub',
    });
    expect(stored.customer_id).toMatch(/^cus_/);
    expect(stored.attempts).toEqual([expect.objectContaining({ outcome: 'succeeded', provider_account_id: 'pa_efi', provider_payment_id: stored.provider_payment_id })]);
    expect(stored.events.map((e) => e.type)).toEqual(['payment.created', 'payment.pending']);
    expect(sent.find((s) => s.payment_id === request.payment_id)).toMatchObject({
      account: { merchant_id: scope.merchantId, mode: common.Mode.MODE_TEST, account_id: 'pa_efi' }, provider_recurrence_id: 'RN0000000020261201recurrence1',
      amount: 1990, due_date: '2026-12-10', description: 'Plano ouro',
    });
    const pendingEvent = await until(async () => publishedFor(request.payment_id, 'payment.pending')[0], 'payment.pending');
    expect(pendingEvent.data.object).toMatchObject({ subscription_id: 'sub_gold', next_action: { type: 'none' }, provider_payment_id: stored.provider_payment_id });

    // A later repeat answers the same payment and sends nothing.
    const again = await cycles.create(request, 'req');
    expect(again).toMatchObject({ created: false, payment: { _id: request.payment_id, provider_payment_id: stored.provider_payment_id } });
    expect(sent.filter((s) => s.payment_id === request.payment_id)).toHaveLength(1);
  });

  it('adopts a charge the provider made itself: recorded as is, nothing sent', async () => {
    const request = cycleRequest({ cycle: 2, provider_charge_id: 'pay_asaas_777' });
    const first = await cycles.create(request, 'req');
    expect(first.created).toBe(true);
    expect(first.payment).toMatchObject({ status: 'pending', provider_payment_id: 'pay_asaas_777', cycle_charge_until: null, attempts: [] });
    expect(first.payment.events.map((e) => e.type)).toEqual(['payment.created', 'payment.pending']);
    expect(sent.some((s) => s.payment_id === request.payment_id)).toBe(false);
    expect(await cycles.create(request, 'req')).toMatchObject({ created: false, payment: { _id: request.payment_id } });
  });

  it('reads an adopted charge back once: paid before the payment existed, it ends succeeded; unreadable, it stays pending', async () => {
    const paid = await readingBack.create(cycleRequest({ cycle: 1, provider_recurrence_id: '', provider_charge_id: 'txidapproval1' }), 'req');
    expect(paid.payment.status).toBe('succeeded');
    const unreadable = await readingBack.create(cycleRequest({ cycle: 4, provider_charge_id: 'unreachable' }), 'req');
    expect(unreadable.payment.status).toBe('pending');
    expect(readBacks).toEqual([paid.payment._id, unreadable.payment._id]);
  });

  it('a refused charge ends the payment failed (answered, not an error), and a repeat sends nothing more', async () => {
    nextAnswers.push(new RpcError('provider_rejected', GrpcStatus.FAILED_PRECONDITION, { message: 'Este provedor cria as cobranças dos ciclos sozinho.' }));
    const request = cycleRequest({ cycle: 3 });
    const { payment, created } = await cycles.create(request, 'req');
    expect(created).toBe(true);
    expect(payment).toMatchObject({ status: 'failed', failure_code: 'provider_rejected', failure_reason: 'Este provedor cria as cobranças dos ciclos sozinho.', provider_payment_id: '', cycle_charge_until: null });
    expect(payment.attempts).toEqual([expect.objectContaining({ outcome: 'failed', failure_code: 'provider_rejected' })]);
    expect(payment.events.map((e) => e.type)).toEqual(['payment.created', 'payment.failed']);
    expect(await cycles.create(request, 'req')).toMatchObject({ created: false, payment: { status: 'failed' } });
    expect(sent.filter((s) => s.payment_id === request.payment_id)).toHaveLength(1);
  });

  it('a send without an answer fails the call and leaves the payment pending; the retry sends again and records the charge', async () => {
    nextAnswers.push(new RpcError('provider_timeout', GrpcStatus.DEADLINE_EXCEEDED, { message: 'O provedor não respondeu a tempo.' }));
    const request = cycleRequest({ cycle: 4 });
    await expect(cycles.create(request, 'req')).rejects.toMatchObject({ code: 'provider_timeout' });
    const left = await read(request.payment_id);
    expect(left).toMatchObject({ status: 'pending', provider_payment_id: '', cycle_charge_until: null });
    expect(left.attempts).toEqual([expect.objectContaining({ outcome: 'uncertain', failure_code: 'provider_timeout' })]);
    expect(left.events.map((e) => e.type)).toEqual(['payment.created']);

    const retried = await cycles.create(request, 'req');
    expect(retried.created).toBe(false);
    expect(retried.payment).toMatchObject({ status: 'pending', provider_payment_id: `cobr${request.payment_id.replace(/_/g, '')}` });
    expect(retried.payment.attempts.map((a) => a.outcome)).toEqual(['uncertain', 'succeeded']);
    expect(retried.payment.events.map((e) => e.type)).toEqual(['payment.created', 'payment.pending']);
    expect(sent.filter((s) => s.payment_id === request.payment_id)).toHaveLength(2);
    expect(providerCharges.has(request.payment_id)).toBe(true);
  });

  it('a repeat while the first send still runs answers the payment as it is and sends nothing', async () => {
    const request = cycleRequest({ cycle: 5 });
    const first = cycles.create(request, 'req');
    const repeat = await until(async () => ((await paymentModel.exists({ _id: request.payment_id })) ? cycles.create(request, 'req') : undefined), 'the first insert');
    expect(repeat).toMatchObject({ created: false, payment: { _id: request.payment_id, status: 'pending' } });
    await first;
    expect(sent.filter((s) => s.payment_id === request.payment_id)).toHaveLength(1);
  });

  it('refuses a payment id that is another cycle, and an unknown account', async () => {
    const request = cycleRequest({ cycle: 6 });
    await cycles.create(request, 'req');
    await expect(cycles.create({ ...request, cycle: 7 }, 'req')).rejects.toMatchObject({ code: 'idempotency_conflict', param: 'payment_id' });
    const unknownAccount = cycleRequest({ provider_account_id: 'pa_gone' });
    await expect(cycles.create(unknownAccount, 'req')).rejects.toMatchObject({ code: 'parameter_invalid', param: 'provider_account_id' });
    expect(await paymentModel.exists({ _id: unknownAccount.payment_id })).toBeNull();
  });

  it('applies cycle charge reports from the bus: paid once however often it is delivered, failed, canceled; scheduled and retrying change nothing', async () => {
    const paid = (await cycles.create(cycleRequest({ subscription_id: 'sub_reports', cycle: 1 }), 'req')).payment;
    const failed = (await cycles.create(cycleRequest({ subscription_id: 'sub_reports', cycle: 2 }), 'req')).payment;
    const canceled = (await cycles.create(cycleRequest({ subscription_id: 'sub_reports', cycle: 3 }), 'req')).payment;

    await report({ provider_charge_id: failed.provider_payment_id, status: 'retrying', failed_attempts: 1, next_attempt_date: '2026-12-11' });
    for (let i = 0; i < 3; i += 1) await report({ provider_charge_id: paid.provider_payment_id, status: 'paid', end_to_end_id: 'E2EPAID' });
    await report({ provider_charge_id: canceled.provider_payment_id, status: 'canceled' });
    const succeeded = await until(withStatus(paid._id, 'succeeded'), 'the paid cycle');
    expect(succeeded).toMatchObject({ end_to_end_id: 'E2EPAID', amount: 1990 });
    expect(succeeded.paid_at).toBeInstanceOf(Date);
    await until(withStatus(canceled._id, 'canceled'), 'the canceled cycle');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(failed._id)).status).toBe('pending');
    expect((await read(paid._id)).events.filter((e) => e.type === 'payment.succeeded')).toHaveLength(1);
    await until(async () => publishedFor(paid._id, 'payment.succeeded')[0], 'payment.succeeded');
    expect(publishedFor(paid._id, 'payment.succeeded')).toHaveLength(1);

    await report({ provider_charge_id: failed.provider_payment_id, status: 'failed', failed_attempts: 3 });
    const ended = await until(withStatus(failed._id, 'failed'), 'the failed cycle');
    expect(ended).toMatchObject({ failure_code: 'insufficient_funds', failure_reason: expect.stringMatching(/banco do pagador não debitou/) });
    // A late "paid" for a failed cycle does not reopen it.
    expect(await updates.apply({ account_id: 'pa_efi', provider: 'efi', provider_recurrence_id: 'r', provider_charge_id: failed.provider_payment_id, status: 'paid', provider_status: 'x', amount: 1990, due_date: '2026-12-10', failed_attempts: 3, via: 'sync' })).toBe('unchanged');
    expect((await read(failed._id)).status).toBe('failed');
  });

  it('a report that arrives before its adopted payment exists is redelivered until the payment is there', async () => {
    await report({ provider_charge_id: 'pay_asaas_early', status: 'paid', end_to_end_id: 'E2EEARLY' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { payment } = await cycles.create(cycleRequest({ subscription_id: 'sub_asaas', provider_charge_id: 'pay_asaas_early' }), 'req');
    const succeeded = await until(withStatus(payment._id, 'succeeded'), 'the redelivered report');
    expect(succeeded.end_to_end_id).toBe('E2EEARLY');
    // A charge still scheduled that no payment records changes nothing and is not redelivered.
    expect(await updates.apply({ account_id: 'pa_efi', provider: 'efi', provider_recurrence_id: 'r', provider_charge_id: 'nobody', status: 'scheduled', provider_status: 'x', amount: 1, due_date: '2026-12-10', failed_attempts: 0, via: 'webhook' })).toBe('unchanged');
    expect(await updates.apply({ account_id: 'pa_efi', provider: 'efi', provider_recurrence_id: 'r', provider_charge_id: 'nobody', status: 'failed', provider_status: 'x', amount: 1, due_date: '2026-12-10', failed_attempts: 3, via: 'webhook' })).toBe('unknown_payment');
  });

  it('sync reads the cycle charge through its recurrence; simulate debits it in the sandbox and the report makes it succeeded', async () => {
    const synced = (await cycles.create(cycleRequest({ subscription_id: 'sub_sync', cycle: 1 }), 'req')).payment;
    cycleChargeRead = { ...providerCharges.get(synced._id)!, status: 'paid', end_to_end_id: 'E2ESYNC' };
    expect(await sync.sync(synced._id, scope, 'req')).toMatchObject({ status: 'succeeded', end_to_end_id: 'E2ESYNC' });

    const simulatedPayment = (await cycles.create(cycleRequest({ subscription_id: 'sub_sync', cycle: 2 }), 'req')).payment;
    const answered = await simulation.simulate(simulatedPayment._id, scope, 'req');
    expect(simulated.at(-1)).toEqual({
      account: { merchant_id: scope.merchantId, mode: common.Mode.MODE_TEST, account_id: 'pa_efi' }, provider_recurrence_id: 'RN0000000020261201recurrence1',
      provider_charge_id: simulatedPayment.provider_payment_id, outcome: 'paid',
    });
    expect(answered.status).toBe('succeeded');
  });

  it('a paid cycle is refunded like any Pix (by its end-to-end id); a pending one is not canceled alone', async () => {
    const pending = (await cycles.create(cycleRequest({ subscription_id: 'sub_refund', cycle: 1 }), 'req')).payment;
    await expect(cancellation.cancel(pending._id, scope, 'req')).rejects.toMatchObject({ code: 'payment_not_cancelable', message: expect.stringMatching(/Cancele a assinatura/) });
    expect((await read(pending._id)).status).toBe('pending');

    await report({ provider_charge_id: pending.provider_payment_id, status: 'paid', end_to_end_id: 'E2EREFUND' });
    await until(withStatus(pending._id, 'succeeded'), 'the paid cycle');
    const caller: common.Caller = { merchant_id: scope.merchantId, mode: common.Mode.MODE_TEST, key_id: 'key_sub', restricted: false, request_id: '' };
    const { payment } = await refunds.refund({ caller, payment_id: pending._id, idempotency_key: '', request_hash: '', amount: 990, reason: '' }, 'req');
    expect(payment).toMatchObject({ status: 'partially_refunded', amount_refunded: 990 });
    expect(refundCalls.at(-1)).toMatchObject({ amount: 990, end_to_end_id: 'E2EREFUND', ref: { provider_payment_id: pending.provider_payment_id } });
  });

  it("sync settles a cycle's refund the provider accepted but whose outcome never arrived, from the Pix the charge API reads", async () => {
    const paid = (await cycles.create(cycleRequest({ subscription_id: 'sub_refund_sync', cycle: 1 }), 'req')).payment;
    await report({ provider_charge_id: paid.provider_payment_id, status: 'paid', end_to_end_id: 'E2ELOST' });
    await until(withStatus(paid._id, 'succeeded'), 'the paid cycle');
    const caller: common.Caller = { merchant_id: scope.merchantId, mode: common.Mode.MODE_TEST, key_id: 'key_sub', restricted: false, request_id: '' };
    // Accepted (EM_PROCESSAMENTO), its outcome's webhook lost.
    refundAnswer = providersContract.RefundStatus.REFUND_STATUS_PENDING;
    const { payment } = await refunds.refund({ caller, payment_id: paid._id, idempotency_key: '', request_hash: '', amount: 500, reason: '' }, 'req');
    expect(payment.refunds?.[0]).toMatchObject({ status: 'pending', provider_refund_id: expect.stringMatching(/^D/) });
    const refundId = payment.refunds?.[0]?.id ?? '';

    cycleChargeRead = { ...providerCharges.get(paid._id)!, status: 'paid', end_to_end_id: 'E2ELOST' };
    plainChargeRead = {
      provider_payment_id: paid.provider_payment_id, status: providersContract.ChargeStatus.CHARGE_STATUS_PAID, end_to_end_id: 'E2ELOST',
      refunds: [{ provider_refund_id: `D${refundId}`, refund_key: refundId, amount: 500, status: providersContract.RefundStatus.REFUND_STATUS_SUCCEEDED, failure_code: '', failure_reason: '', reason: '', created_at: new Date().toISOString() }],
    } as unknown as providersContract.Charge;
    expect(await sync.sync(paid._id, scope, 'req')).toMatchObject({ status: 'partially_refunded', amount_refunded: 500, refunds: [expect.objectContaining({ id: refundId, status: 'succeeded' })] });
    refundAnswer = providersContract.RefundStatus.REFUND_STATUS_SUCCEEDED;
  });

  it('lists a subscription\'s cycles, newest first, within the caller\'s merchant and mode', async () => {
    const first = (await cycles.create(cycleRequest({ subscription_id: 'sub_list', cycle: 1 }), 'req')).payment;
    const second = (await cycles.create(cycleRequest({ subscription_id: 'sub_list', cycle: 2 }), 'req')).payment;
    await cycles.create(cycleRequest({ subscription_id: 'sub_list', cycle: 1, mode: common.Mode.MODE_LIVE }), 'req');
    const { data, hasMore } = await store.list(scope, { subscriptionId: 'sub_list' }, 10);
    expect(data.map((p) => p._id)).toEqual([second._id, first._id]);
    expect(hasMore).toBe(false);
    // The store answers no `explain`: the index the list's query needs is checked to exist.
    const indexes = await paymentModel.collection.indexes();
    expect(indexes.map((index) => index.key)).toContainEqual({ merchant_id: 1, mode: 1, subscription_id: 1, _id: -1 });
  });

  it('the expiry worker never takes a cycle payment (no expiry: the payer\'s bank debits it)', async () => {
    const cycle = (await cycles.create(cycleRequest({ subscription_id: 'sub_expiry', cycle: 1 }), 'req')).payment;
    // Even one whose stored times are long past: nothing is due on a cycle payment.
    await paymentModel.updateOne({ _id: cycle._id }, { $set: { created_at: new Date(Date.now() - 30 * 86_400_000) } });
    const pix = await paymentModel.create({
      _id: newId('payment'), merchant_id: scope.merchantId, mode: 'test', method: 'pix', status: 'pending', amount: 500, customer: { name: 'Bia' },
      expires_at: new Date(Date.now() - 1_000), due_at: new Date(Date.now() - 1_000), created_at: new Date(), updated_at: new Date(),
    });
    const expired: string[] = [];
    const worker = createPaymentExpiryWorker({ store, expiry: { expire: async (payment) => void expired.push(payment._id) }, logger, pollIntervalMs: 60_000 });
    await worker.tick();
    expect(expired).toContain(pix._id);
    expect(expired).not.toContain(cycle._id);
    expect(await read(cycle._id)).toMatchObject({ status: 'pending', due_at: null, expires_at: null });
  });
});

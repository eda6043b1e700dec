import { common, providers as providersContract, type payments, type payouts as payoutsContract, type ProviderChargeUpdated, type routing } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, EventBus, OutboxRelay, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import { MongoNetworkError } from 'mongodb';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerFailedCreationModel } from '../db/failed-creation.model';
import { registerIdempotencyRecordModel, type IdempotencyRecordModel } from '../db/idempotency-record.model';
import { DueRecords } from '../db/due-records';
import { registerOrphanChargeModel } from '../db/orphan-charge.model';
import { registerPaymentModel, type PaymentDoc, type PaymentModel } from '../db/payment.model';
import { PaymentStore } from '../db/payment.store';
import { PaymentLinks } from '../domain/payment-links';
import { ChargeStateApplier } from './apply-charge-state';
import { AvailableMethods } from './available-methods';
import { ChargeWalker } from './charge-walker';
import { CycleChargeApplier } from './cycle-charge-state';
import { PaymentCreator } from './create-payment';
import { PaymentSplits } from './payment-splits';
import { IdempotencyGuard } from '../db/idempotency.guard';
import { OrphanCharges } from './orphan-charges';
import { ProviderChargeUpdates } from './provider-charge-updates';
import { PaymentRefunds } from './refund-payment';
import { PaymentSync } from './sync-payment';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });
const { ChargeStatus, RefundStatus } = providersContract;
const PIX_CODE = '00020101021226830014br.gov.bcb.pix2561qrcodes.example/v2/abc5204000053039865802BR6304ABCD';
const jitter = () => new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 40));

/**
 * The money invariants that hold without any lock, against the real store and broker: every
 * writer races through conditional single-document writes only. Routing and providers are
 * in-process stand-ins with a little random latency, so the contenders interleave.
 */
describe('payments under concurrent writers (real store)', () => {
  let db: Connection;
  let bus: EventBus;
  let paymentModel: PaymentModel;
  let store: PaymentStore;
  let creator: PaymentCreator;
  let updates: ProviderChargeUpdates;
  let syncs: PaymentSync;
  let refunds: PaymentRefunds;
  let idempotencyRecords: IdempotencyRecordModel;
  let orphanRecords: ReturnType<typeof registerOrphanChargeModel>;
  const published: EventEnvelope[] = [];
  const charges: providersContract.CreateChargeRequest[] = [];
  /** When set, each charge call notes the account the key's record names at that moment ("<asked>:<named>"). */
  let watchedRecord = '';
  const namedAtCall: string[] = [];
  const refundCalls: providersContract.RefundChargeRequest[] = [];

  const routes: routing.RouteRequest[] = [];
  /** The account's fee schedule routing answers (the split fee check reads it). */
  let fees: providersContract.FeeRule[] = [];
  /** The accounts routing answers, in order (one by default), and those whose provider refuses every charge now. */
  let routeOrder = ['pa_a'];
  const refusing = new Set<string>();
  const routingClient = {
    route: async (request: routing.RouteRequest) => {
      routes.push(request);
      return { candidates: routeOrder.map((account_id, i) => ({ account_id, provider: 'asaas', priority: 10 + i, reason: 'priority', fees })) };
    },
  } as unknown as RpcClient<typeof routing.RoutingServiceService>;
  /** The payouts service at its gRPC seam: the subaccounts it owns, as ResolveSplits answers them. */
  const subaccounts: Record<string, payoutsContract.SplitSubaccount> = {
    sub_a: { id: 'sub_a', status: 'active', provider: 'asaas', provider_account_id: 'pa_a', split_target: 'wallet-a' },
    sub_b: { id: 'sub_b', status: 'pending', provider: 'asaas', provider_account_id: 'pa_a', split_target: 'wallet-b' },
    sub_other: { id: 'sub_other', status: 'active', provider: 'asaas', provider_account_id: 'pa_other', split_target: 'wallet-o' },
    sub_c: { id: 'sub_c', status: 'active', provider: 'asaas', provider_account_id: 'pa_a', split_target: 'wallet-c' },
    sub_d: { id: 'sub_d', status: 'active', provider: 'asaas', provider_account_id: 'pa_a', split_target: 'wallet-d' },
    sub_blocked: { id: 'sub_blocked', status: 'blocked', provider: 'asaas', provider_account_id: 'pa_a', split_target: 'wallet-x' },
  };
  /** The providers' catalog as ListProviders answers it: only max_splits matters here. */
  const catalogClient = {
    listProviders: async () => ({ providers: [{ code: 'asaas', capabilities: { max_splits: 3 } }] }),
  } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;
  const payoutsClient = {
    resolveSplits: async (request: payoutsContract.ResolveSplitsRequest) => ({
      subaccounts: request.subaccount_ids.map((id, index) => {
        const found = subaccounts[id];
        if (!found) throw new AppError('not_found', { param: `splits[${index}].subaccount_id` });
        return found;
      }),
    }),
  } as unknown as RpcClient<typeof payoutsContract.PayoutsServiceService>;
  const charge = (providerPaymentId: string, status: providersContract.ChargeStatus, amount: number): providersContract.Charge => ({
    provider: 'efi', account_id: 'pa_a', provider_payment_id: providerPaymentId, status,
    next_action: { type: 'pix_qr', qr_code: PIX_CODE },
    expires_at: new Date(Date.now() + 3_600_000).toISOString(), amount, amount_paid: status === ChargeStatus.CHARGE_STATUS_PAID ? amount : 0,
    ...(status === ChargeStatus.CHARGE_STATUS_PAID ? { end_to_end_id: `E2E${providerPaymentId}`, paid_at: new Date().toISOString() } : {}), refunds: [],
  });
  const providersClient = {
    createCharge: async (request: providersContract.CreateChargeRequest) => {
      if (refusing.has(request.account_id)) throw new AppError('provider_unavailable');
      if (watchedRecord) namedAtCall.push(`${request.account_id}:${(await idempotencyRecords.findById(watchedRecord).lean())?.trying ?? ''}`);
      charges.push(request);
      await jitter();
      return { charge: charge(`tx${request.payment_id.replace(/_/g, '')}`, ChargeStatus.CHARGE_STATUS_PENDING, request.amount) };
    },
    getCharge: async (request: providersContract.GetChargeRequest) => {
      await jitter();
      return { charge: charge(request.ref!.provider_payment_id, ChargeStatus.CHARGE_STATUS_PAID, 1000) };
    },
    refundCharge: async (request: providersContract.RefundChargeRequest) => {
      refundCalls.push(request);
      await jitter();
      const refund: providersContract.ProviderRefund = {
        provider_refund_id: `D${request.refund_key}`, refund_key: request.refund_key, amount: request.amount, status: RefundStatus.REFUND_STATUS_SUCCEEDED,
        failure_code: '', failure_reason: '', reason: request.reason, created_at: new Date().toISOString(),
      };
      return { refund };
    },
  } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;

  const caller: common.Caller = { merchant_id: 'acct_races', mode: common.Mode.MODE_TEST, key_id: 'key_1', restricted: false, request_id: '' };
  const scope = { merchantId: 'acct_races', mode: 'test' as const };
  const createRequest = (overrides: Partial<payments.CreatePaymentRequest> = {}): payments.CreatePaymentRequest => ({
    caller, idempotency_key: '', request_hash: '', method: 'pix', amount: 1000, description: 'Pedido', customer: { name: 'Ana' },
    expires_in_minutes: 0, metadata: {}, tracking: {}, provider_account_id: '', splits: [], ...overrides,
  });
  /** The record a create left when its process died holding the key: in progress, its lease ended (asking `trying`, if given). */
  const deadOwner = async (key: string, requestHash: string, paymentId: string, trying?: string) => {
    const past = new Date(Date.now() - 1_000);
    await idempotencyRecords.create({
      _id: IdempotencyGuard.recordId('acct_races', 'test', key), request_hash: requestHash, payment_id: paymentId, state: 'in_progress',
      error_code: '', error_message: '', error_param: '', created_at: past, lease_until: past, ...(trying ? { trying } : {}),
    });
  };
  const read = async (id: string) => (await paymentModel.findById(id).lean<PaymentDoc>()) as PaymentDoc;
  const paid = (payment: PaymentDoc): ProviderChargeUpdated => ({
    account_id: 'pa_a', provider: 'efi', provider_payment_id: payment.provider_payment_id, status: 'paid', amount_paid: payment.amount,
    end_to_end_id: `E2E${payment.provider_payment_id}`, paid_at: new Date().toISOString(), via: 'webhook',
  });
  const publishedFor = (paymentId: string, type: string) =>
    published.filter((event) => event.type === type && ((event.data.object as { id?: string; payment_id?: string }).payment_id ?? (event.data.object as { id?: string }).id) === paymentId);

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('payraces');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['payment.*', 'refund.*'] }, async (event) => void published.push(event));
    const outbox = new OutboxRelay({ bus, logger });
    const links = new PaymentLinks('http://pay.example.com', 'http://api.example.com');
    paymentModel = registerPaymentModel(db);
    store = new PaymentStore(paymentModel, registerFailedCreationModel(db), outbox, links);
    idempotencyRecords = registerIdempotencyRecordModel(db);
    orphanRecords = registerOrphanChargeModel(db);
    const orphans = new OrphanCharges(new DueRecords(orphanRecords), providersClient, logger);
    await ensureIndexes(db);
    creator = new PaymentCreator({
      store, links, logger, routing: routingClient, methods: new AvailableMethods(routingClient), splits: new PaymentSplits(payoutsClient, catalogClient),
      walker: new ChargeWalker({ routing: routingClient, providers: providersClient, orphans, logger, providerCallDeadlineMs: 5_000 }),
      idempotency: new IdempotencyGuard(idempotencyRecords, 3_600_000, 60_000, { resumeAbandoned: true }),
      defaultPixExpiresMinutes: 60, defaultMethodChoiceMinutes: 45,
    });
    refunds = new PaymentRefunds({ store, idempotency: new IdempotencyGuard(idempotencyRecords, 3_600_000, 60_000), providers: providersClient, logger, providerCallDeadlineMs: 5_000 });
    const charges = new ChargeStateApplier(store, refunds, logger);
    updates = new ProviderChargeUpdates(store, charges);
    syncs = new PaymentSync(store, providersClient, charges, new CycleChargeApplier(store, charges), refunds, logger);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });

  it('50 concurrent creates with one Idempotency-Key make one payment and one charge', async () => {
    const request = createRequest({ idempotency_key: 'order-50', request_hash: 'h-50' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => creator.create(request, 'req')));
    const ids = new Set(answers.map((answer) => answer.payment._id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect(await paymentModel.countDocuments({ merchant_id: 'acct_races', idempotency_key: 'order-50' })).toBe(1);
    expect(charges.filter((c) => ids.has(c.payment_id))).toHaveLength(1);
  });

  it('a create whose process died holding its key is resumed under its own payment id: the same provider key, one payment', async () => {
    // The dead owner: its record in progress with a lease that ended, its charge possibly made.
    const deadId = 'pay_deadowner1';
    await deadOwner('order-dead', 'h-dead', deadId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => creator.create(createRequest({ idempotency_key: 'order-dead', request_hash: 'h-dead' }), 'req')));
    expect(new Set(answers.map((answer) => answer.payment._id))).toEqual(new Set([deadId]));
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    // Every charge request of the key carried the dead owner's provider idempotency key.
    expect(charges.filter((c) => c.payment_id === deadId).map((c) => c.idempotency_key)).toEqual([`${deadId}:pa_a`]);
    // Routing was asked for the dead owner's payment id: a weighted rule draws the account it drew then.
    expect(routes.filter((r) => r.payment_id === deadId)).toHaveLength(1);
    expect(await paymentModel.countDocuments({ merchant_id: 'acct_races', idempotency_key: 'order-dead' })).toBe(1);
  });

  it('a keyed create’s record names each account before it is asked: the first with the claim, a failover’s by its own write', async () => {
    routeOrder = ['pa_a', 'pa_b'];
    refusing.add('pa_a');
    watchedRecord = IdempotencyGuard.recordId('acct_races', 'test', 'order-named');
    try {
      const created = await creator.create(createRequest({ idempotency_key: 'order-named', request_hash: 'h-named' }), 'req');
      expect(created.payment.provider_account_id).toBe('pa_b');
      // pa_a refused before any charge call was recorded; pa_b was asked while the record named it.
      expect(namedAtCall).toEqual(['pa_b:pa_b']);
      expect((await idempotencyRecords.findById(watchedRecord).lean())?.trying).toBe('pa_b');
    } finally {
      routeOrder = ['pa_a'];
      refusing.clear();
      watchedRecord = '';
    }
  });

  it('a create whose owner died asking its failover account asks that account first, though routing now orders it last', async () => {
    const deadId = 'pay_deadowner2';
    await deadOwner('order-dead-b', 'h-dead-b', deadId, 'pa_b');
    routeOrder = ['pa_a', 'pa_b'];
    try {
      const resumed = await creator.create(createRequest({ idempotency_key: 'order-dead-b', request_hash: 'h-dead-b' }), 'req');
      expect(resumed.payment).toMatchObject({ _id: deadId, provider_account_id: 'pa_b' });
      // Only pa_b was asked, with the dead owner's provider key: its charge is found, pa_a never charged.
      expect(charges.filter((c) => c.payment_id === deadId).map((c) => c.idempotency_key)).toEqual([`${deadId}:pa_b`]);
    } finally {
      routeOrder = ['pa_a'];
    }
  });

  it('a resumed Pix whose earlier account refuses now moves on, keeping a possible charge there as an orphan to remove', async () => {
    const deadId = 'pay_deadowner3';
    await deadOwner('order-dead-c', 'h-dead-c', deadId, 'pa_b');
    routeOrder = ['pa_a', 'pa_b'];
    refusing.add('pa_b');
    try {
      const resumed = await creator.create(createRequest({ idempotency_key: 'order-dead-c', request_hash: 'h-dead-c' }), 'req');
      expect(resumed.payment).toMatchObject({ _id: deadId, provider_account_id: 'pa_a' });
      expect(await orphanRecords.countDocuments({ _id: `${deadId}:pa_b` })).toBe(1);
    } finally {
      routeOrder = ['pa_a'];
      refusing.clear();
    }
  });

  it('a create whose process died after storing its payment is answered with that payment, charging nothing more', async () => {
    const first = await creator.create(createRequest({ idempotency_key: 'order-stored', request_hash: 'h-stored' }), 'req');
    const recordId = IdempotencyGuard.recordId('acct_races', 'test', 'order-stored');
    // As if the owner died between its insert and marking the key done.
    await idempotencyRecords.updateOne({ _id: recordId }, { $set: { state: 'in_progress', lease_until: new Date(Date.now() - 1_000) } });
    const chargesBefore = charges.length;
    const again = await creator.create(createRequest({ idempotency_key: 'order-stored', request_hash: 'h-stored' }), 'req');
    expect(again).toMatchObject({ replayed: true, payment: { _id: first.payment._id } });
    expect(charges.length).toBe(chargesBefore);
    expect((await idempotencyRecords.findById(recordId).lean())?.state).toBe('done');
  });

  it('a create charged at the provider but not stored is retried under the same payment id (the provider finds its charge)', async () => {
    // The store fails the payment's insert once, after the provider answered (a store restart).
    const insert = jest.spyOn(store, 'insertWithEvents').mockRejectedValueOnce(new MongoNetworkError('connection 7 to 127.0.0.1:27018 closed'));
    try {
      const request = createRequest({ idempotency_key: 'order-unstored', request_hash: 'h-unstored' });
      await expect(creator.create(request, 'req')).rejects.toBeInstanceOf(MongoNetworkError);
      const firstTry = charges[charges.length - 1]!;
      const again = await creator.create(request, 'req');
      expect(again.payment._id).toBe(firstTry.payment_id);
      expect(charges.filter((c) => c.payment_id === firstTry.payment_id).map((c) => c.idempotency_key)).toEqual([firstTry.idempotency_key, firstTry.idempotency_key]);
      expect(await paymentModel.countDocuments({ merchant_id: 'acct_races', idempotency_key: 'order-unstored' })).toBe(1);
    } finally {
      insert.mockRestore();
    }
  });

  it('an owner that lives keeps its short lease: a retry waits instead of taking the key over', async () => {
    const guard = new IdempotencyGuard(idempotencyRecords, 3_600_000, 3_000, { resumeAbandoned: true });
    const recordId = IdempotencyGuard.recordId('acct_races', 'test', 'order-alive');
    const claimed = await guard.claim(recordId, 'h-alive', 'pay_alive1', Date.now());
    expect(claimed).toEqual({ kind: 'owner', paymentId: 'pay_alive1', resumed: false, earlierAccount: '', owner: expect.any(String) });
    const release = guard.holdLease(recordId, (claimed as { owner: string }).owner);
    try {
      // Past the first lease: only the renewals keep the key its owner's.
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      await expect(guard.claim(recordId, 'h-alive', 'pay_other', Date.now() + 200)).rejects.toMatchObject({ code: 'idempotency_in_progress' });
    } finally {
      release();
    }
    // Once its owner stops renewing, the lease ends and the waiting retry resumes the key under the same id.
    await expect(guard.claim(recordId, 'h-alive', 'pay_other', Date.now() + 15_000)).resolves.toEqual({ kind: 'owner', paymentId: 'pay_alive1', resumed: true, earlierAccount: '', owner: expect.any(String) });
  });

  it('an owner presumed dead that was only slow writes nothing over the successor that resumed its payment id', async () => {
    const guard = new IdempotencyGuard(idempotencyRecords, 3_600_000, 1, { resumeAbandoned: true });
    const recordId = IdempotencyGuard.recordId('acct_races', 'test', 'order-slow');
    const slow = await guard.claim(recordId, 'h-slow', 'pay_slow1', Date.now(), 'pa_a');
    await new Promise((resolve) => setTimeout(resolve, 20)); // its 1-ms lease ends, never renewed
    const successor = await guard.claim(recordId, 'h-slow', 'pay_other', Date.now() + 5_000);
    expect(successor).toMatchObject({ kind: 'owner', paymentId: 'pay_slow1', resumed: true, earlierAccount: 'pa_a' });
    if (slow.kind !== 'owner' || successor.kind !== 'owner') throw new Error('both must have owned the key');
    expect(successor.owner).not.toBe(slow.owner);
    // The slow owner fails over: it may not name another account, and it stops there.
    await expect(guard.noteTry(recordId, slow.owner, 'pa_b')).rejects.toMatchObject({ code: 'idempotency_in_progress' });
    expect((await idempotencyRecords.findById(recordId).lean())?.trying).toBe('pa_a');
    // Its failure writes nothing; the successor's outcome stands, and a retry is its replay.
    await guard.fail(recordId, slow.owner, new AppError('idempotency_in_progress'));
    expect((await idempotencyRecords.findById(recordId).lean())?.state).toBe('in_progress');
    await guard.complete(recordId, successor.owner);
    await guard.fail(recordId, slow.owner, new AppError('provider_error'));
    await guard.complete(recordId, slow.owner);
    expect(await idempotencyRecords.findById(recordId).lean()).toMatchObject({ state: 'done', payment_id: 'pay_slow1', owner: successor.owner });
    await expect(guard.claim(recordId, 'h-slow', 'pay_third', Date.now() + 1_000)).resolves.toEqual({ kind: 'replay', paymentId: 'pay_slow1' });
  });

  it('webhooks and syncs racing on one payment move it once, with one payment.succeeded', async () => {
    const { payment } = await creator.create(createRequest(), 'req');
    const webhook = paid(payment);
    const outcomes = await Promise.all([
      ...Array.from({ length: 5 }, () => updates.apply(webhook)),
      ...Array.from({ length: 5 }, () => syncs.sync(payment._id, scope, 'req').then(() => 'synced' as const)),
    ]);
    expect(outcomes.filter((outcome) => outcome === 'applied').length).toBeLessThanOrEqual(1);
    const stored = await read(payment._id);
    expect(stored.status).toBe('succeeded');
    expect(stored.due_at).toBeNull();
    expect(stored.events.filter((event) => event.type === 'payment.succeeded')).toHaveLength(1);
    await waitFor(() => publishedFor(payment._id, 'payment.succeeded').length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(publishedFor(payment._id, 'payment.succeeded')).toHaveLength(1);
  });

  it('20 parallel refunds of a tenth each: exactly the amount is refunded, the rest refused', async () => {
    const { payment } = await creator.create(createRequest(), 'req');
    await updates.apply(paid(payment));
    refundCalls.length = 0;
    const refund = (): payments.RefundPaymentRequest => ({ caller, payment_id: payment._id, idempotency_key: '', request_hash: '', amount: 100, reason: '' });
    const answers = await Promise.allSettled(Array.from({ length: 20 }, () => refunds.refund(refund(), 'req')));
    const accepted = answers.filter((answer) => answer.status === 'fulfilled');
    const refused = answers.filter((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const { reason } of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect(['refund_amount_exceeds_remaining', 'payment_not_refundable']).toContain((reason as AppError).code);
    }
    expect(refundCalls).toHaveLength(10);

    const stored = await read(payment._id);
    expect(stored).toMatchObject({ status: 'refunded', amount_refunded: 1000 });
    expect(stored.refunds).toHaveLength(10);
    expect(stored.refunds!.every((r) => r.status === 'succeeded' && r.amount === 100 && r.announced)).toBe(true);
    const types = stored.events.map((event) => event.type);
    expect(types.filter((type) => type === 'refund.created')).toHaveLength(10);
    expect(types.filter((type) => type === 'refund.succeeded')).toHaveLength(10);
    expect(types.filter((type) => type === 'payment.partially_refunded')).toHaveLength(9);
    expect(types.filter((type) => type === 'payment.refunded')).toHaveLength(1);
  });

  it('a refund recorded by its request and reported by the provider at once counts once', async () => {
    const { payment } = await creator.create(createRequest(), 'req');
    await updates.apply(paid(payment));
    const done = await refunds.refund({ caller, payment_id: payment._id, idempotency_key: '', request_hash: '', amount: 400, reason: '' }, 'req');
    const report = { provider_refund_id: done.refund.provider_refund_id, refund_key: done.refund.id, amount: 400, status: 'succeeded' as const };
    await Promise.all(Array.from({ length: 10 }, () => refunds.applyReports(payment._id, [report])));
    const stored = await read(payment._id);
    expect(stored).toMatchObject({ status: 'partially_refunded', amount_refunded: 400 });
    expect(stored.refunds).toHaveLength(1);
    expect(stored.events.filter((event) => event.type === 'refund.succeeded')).toHaveLength(1);
  });

  // Splits go through the same creation: parts computed and stored once, the payment pinned to the
  // subaccounts' account, the provider sent each part with its split target; refusals leave nothing.
  it('a split payment is pinned to its subaccounts’ account, stores its parts and sends them to the provider', async () => {
    routes.length = 0;
    const { payment } = await creator.create(
      createRequest({ amount: 999, splits: [{ subaccount_id: 'sub_a', percent_bps: 1_250 }, { subaccount_id: 'sub_b', amount: 300 }] }),
      'req',
    );
    expect(routes.at(-1)?.forced_account_id).toBe('pa_a');
    expect(payment.splits).toStrictEqual([
      { subaccount_id: 'sub_a', amount: 124, split_target: 'wallet-a' },
      { subaccount_id: 'sub_b', amount: 300, split_target: 'wallet-b' },
    ]);
    const sent = charges.find((request) => request.payment_id === payment._id);
    expect(sent?.splits).toStrictEqual([
      { subaccount_id: 'sub_a', split_target: 'wallet-a', amount: 124 },
      { subaccount_id: 'sub_b', split_target: 'wallet-b', amount: 300 },
    ]);
    expect((await read(payment._id)).splits).toHaveLength(2);

    const pending = await store.splitSummary(scope, 'sub_a', 10);
    expect(pending.byStatus).toStrictEqual([{ status: 'pending', payments: 1, amount: 124 }]);
    await updates.apply(paid(payment));
    const settled = await store.splitSummary(scope, 'sub_a', 10);
    expect(settled.byStatus).toStrictEqual([{ status: 'succeeded', payments: 1, amount: 124 }]);
    expect(settled.recent.map((doc) => doc._id)).toStrictEqual([payment._id]);
    expect((await store.splitSummary(scope, 'sub_other', 10)).recent).toHaveLength(0);
  });

  it.each([
    ['a subaccount of another connected account', [{ subaccount_id: 'sub_a', amount: 100 }, { subaccount_id: 'sub_other', amount: 100 }], 'splits[1].subaccount_id'],
    ['a blocked subaccount', [{ subaccount_id: 'sub_blocked', amount: 100 }], 'splits[0].subaccount_id'],
    ['an unknown subaccount', [{ subaccount_id: 'sub_nobody', amount: 100 }], 'splits[0].subaccount_id'],
    ['parts reaching the amount', [{ subaccount_id: 'sub_a', amount: 600 }, { subaccount_id: 'sub_b', amount: 400 }], 'splits'],
    ['more parts than the provider takes', ['sub_a', 'sub_b', 'sub_c', 'sub_d'].map((subaccount_id) => ({ subaccount_id, amount: 10 })), 'splits'],
  ])('refuses %s before anything is stored or charged', async (_case, splits, param) => {
    const key = `split-${param}-${splits.length}`;
    const before = charges.length;
    await expect(creator.create(createRequest({ idempotency_key: key, request_hash: key, splits }), 'req')).rejects.toMatchObject({ param });
    expect(charges.length).toBe(before);
    expect(await paymentModel.countDocuments({ merchant_id: 'acct_races', idempotency_key: key })).toBe(0);
  });

  it('refuses parts that leave the main account less than the account’s fee, and a restricted key', async () => {
    fees = [{ method: 'pix', percent_bps: 0, fixed: 200 }];
    try {
      const before = charges.length;
      await expect(creator.create(createRequest({ splits: [{ subaccount_id: 'sub_a', amount: 801 }] }), 'req')).rejects.toMatchObject({ code: 'parameter_invalid', param: 'splits' });
      expect(charges.length).toBe(before);
      const { payment } = await creator.create(createRequest({ splits: [{ subaccount_id: 'sub_a', amount: 800 }] }), 'req');
      expect(payment.splits?.[0]?.amount).toBe(800);
    } finally {
      fees = [];
    }
    // Without a method the buyer chooses later: only methods whose fee the remainder covers are offered.
    fees = ['pix', 'boleto', 'card'].map((method) => ({ method, percent_bps: 0, fixed: 200 }));
    try {
      await expect(creator.create(createRequest({ method: '', splits: [{ subaccount_id: 'sub_a', amount: 801 }] }), 'req')).rejects.toMatchObject({ param: 'splits' });
      fees = [{ method: 'pix', percent_bps: 0, fixed: 200 }];
      const awaiting = await creator.create(createRequest({ method: '', splits: [{ subaccount_id: 'sub_a', amount: 801 }] }), 'req');
      expect(awaiting.payment).toMatchObject({ status: 'requires_method', requested_account_id: 'pa_a' });
    } finally {
      fees = [];
    }
    await expect(creator.create(createRequest({ caller: { ...caller, restricted: true }, splits: [{ subaccount_id: 'sub_a', amount: 1 }] }), 'req')).rejects.toMatchObject({
      code: 'restricted_key',
    });
  });

  it('an orphan charge found paid is refunded in full, once, however often the work runs', async () => {
    const refunded: providersContract.RefundChargeRequest[] = [];
    const paidAtProvider = {
      createCharge: async (request: providersContract.CreateChargeRequest) => ({ charge: charge(`orphan${request.payment_id.slice(-6)}`, ChargeStatus.CHARGE_STATUS_PAID, request.amount) }),
      refundCharge: async (request: providersContract.RefundChargeRequest) => {
        refunded.push(request);
        return {};
      },
    } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;
    const orphans = new OrphanCharges(new DueRecords(registerOrphanChargeModel(db)), paidAtProvider, logger);
    await orphans.record('pay_orphan1', { merchant_id: 'acct_races', mode: common.Mode.MODE_TEST, account_id: 'pa_a', payment_id: 'pay_orphan1', method: 'card', amount: 4_990, customer: createRequest().customer, expires_in_seconds: 0, description: '', metadata: {}, idempotency_key: 'pay_orphan1:pa_a', splits: [] });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await orphans.worker.tick();
    await orphans.worker.tick();
    // This payment's orphan only (the suite's earlier resumed creates leave theirs in the same collection).
    const own = refunded.filter((request) => request.refund_key.includes('pay_orphan1'));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ amount: 4_990, ref: { account_id: 'pa_a', provider_payment_id: 'orphanrphan1' }, refund_key: expect.stringMatching(/^re_orphan_/) });
  });

  it('a retried split payment is its replay, even after its subaccount was blocked', async () => {
    const request = createRequest({ idempotency_key: 'split-replay', request_hash: 'h-split-replay', splits: [{ subaccount_id: 'sub_c', amount: 100 }] });
    const first = await creator.create(request, 'req');
    subaccounts['sub_c'] = { ...subaccounts['sub_c']!, status: 'blocked' };
    try {
      const again = await creator.create(request, 'req');
      expect(again).toMatchObject({ replayed: true, payment: { _id: first.payment._id } });
      expect(charges.filter((c) => c.payment_id === first.payment._id)).toHaveLength(1);
    } finally {
      subaccounts['sub_c'] = { ...subaccounts['sub_c']!, status: 'active' };
    }
  });

  it('a provider_account_id other than the subaccounts’ account is refused naming it', async () => {
    await expect(creator.create(createRequest({ provider_account_id: 'pa_other', splits: [{ subaccount_id: 'sub_a', amount: 1 }] }), 'req')).rejects.toMatchObject({
      param: 'provider_account_id',
    });
  });
});

async function waitFor(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

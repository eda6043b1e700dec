import { accounts, common, PROVIDER_TRANSFER_UPDATED, providers, toPublicPayout } from '@orquestra/contracts';
import { AppError, connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, saoPauloDate, type EventEnvelope, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { DailyLimit } from '../db/daily-limit';
import { startTransferConsumer } from '../events/transfer.consumer';
import { toProtoPayout } from '../db/payout.mapper';
import { registerPayoutDayModel, registerPayoutModel, type PayoutModel } from '../db/payout.model';
import { PayoutStore, type CallerScope } from '../db/payout.store';
import { registerSubaccountModel, type SubaccountModel } from '../db/subaccount.model';
import { PayoutsService } from './payouts.service';
import { SubaccountsService } from './subaccounts.service';
import { WithdrawalsService, type CreateWithdrawalCommand } from './withdrawals.service';

jest.setTimeout(60_000);

/**
 * The providers and accounts collaborators are one small gRPC server answering what the real
 * services promise: CreateTransfer idempotent on payout_id, a withdrawal (a subaccount source)
 * made from that subaccount, GetTransfer of a withdrawal found only with its source. It records
 * the sources it was given and counts transfers made per payout (never more than one). The store
 * and broker are real; the e2e suite runs the real services.
 */
class FakeProvider {
  readonly transfers = new Map<string, providers.Transfer>();
  readonly creates = new Map<string, number>();
  readonly createSources = new Map<string, providers.SubaccountSource | undefined>();
  readonly readSources: Array<providers.SubaccountSource | undefined> = [];
  /** What the next CreateTransfer of an amount does. */
  readonly behaviour = new Map<number, 'execute_then_timeout' | 'whole_balance'>();
  subaccountStatus = 'active';
  enabled = true;

  providerHandlers(): Handlers<typeof providers.ProvidersServiceService> {
    const account = providers.ProviderAccount.fromPartial({ id: 'pa_woovi', merchant_id: 'acct_wd', mode: common.Mode.MODE_TEST, provider: 'woovi', enabled: true });
    const handlers: Partial<Handlers<typeof providers.ProvidersServiceService>> = {
      getAccount: async ({ account_id }) => {
        if (account_id !== 'pa_woovi') throw new AppError('not_found', { param: 'account_id' });
        return { account };
      },
      listProviders: async () => ({ providers: [providers.ProviderInfo.fromPartial({ code: 'woovi', capabilities: { payouts: true, subaccounts: { supported: true } } })] }),
      createSubaccount: async ({ subaccount_id, pix_key }) => ({
        subaccount: { provider_subaccount_id: `woovi_${subaccount_id}`, status: this.subaccountStatus, status_detail: '', provider_status: 'X', details: {}, split_target: pix_key?.key ?? '' },
        provider: 'woovi',
      }),
      createTransfer: async ({ payout_id, amount, destination, subaccount }) => {
        this.creates.set(payout_id, (this.creates.get(payout_id) ?? 0) + 1);
        this.createSources.set(payout_id, subaccount);
        if (destination?.type !== 'subaccount' || !subaccount?.provider_subaccount_id) throw new AppError('parameter_invalid', { param: 'destination' });
        const existing = this.transfers.get(payout_id);
        if (existing) return { transfer: existing, provider: 'woovi' };
        const behaviour = this.behaviour.get(amount);
        const transfer = providers.Transfer.fromPartial({
          provider_transfer_id: `W${payout_id}`,
          payout_id,
          status: 'processing',
          provider_status: 'CREATED',
          // The whole balance left, whatever was asked.
          amount: behaviour === 'whole_balance' ? 7_777 : amount,
          whole_balance: behaviour === 'whole_balance',
        });
        this.transfers.set(payout_id, transfer);
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (behaviour === 'execute_then_timeout') throw new AppError('provider_timeout');
        return { transfer, provider: 'woovi' };
      },
      getTransfer: async ({ payout_id, subaccount }) => {
        this.readSources.push(subaccount);
        // A withdrawal lives in the subaccount: without its source the provider does not find it.
        const transfer = subaccount?.provider_subaccount_id ? this.transfers.get(payout_id) : undefined;
        if (!transfer) throw new AppError('not_found', { param: 'payout_id' });
        return { transfer };
      },
    };
    return handlers as Handlers<typeof providers.ProvidersServiceService>;
  }

  ownerHandlers(): Handlers<typeof accounts.AccountsServiceService> {
    const handlers: Partial<Handlers<typeof accounts.AccountsServiceService>> = {
      getPayoutSettings: async () => ({ settings: { api_enabled: this.enabled, daily_limit: 1_000, updated_at: '' } }),
    };
    return handlers as Handlers<typeof accounts.AccountsServiceService>;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('subaccount withdrawals against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let server: GrpcServer;
  let model: PayoutModel;
  let subaccountModel: SubaccountModel;
  let payouts: PayoutsService;
  let subaccounts: SubaccountsService;
  let withdrawals: WithdrawalsService;
  let limit: DailyLimit;
  const fake = new FakeProvider();
  const published: EventEnvelope[] = [];
  const closers: Array<() => void> = [];
  const scope: CallerScope = { merchantId: 'acct_wd', mode: 'test' };
  let keys = 0;
  let active: string;

  const command = (overrides: Partial<CreateWithdrawalCommand> = {}): CreateWithdrawalCommand => ({
    scope,
    keyId: 'key_full',
    idempotencyKey: `w-${++keys}`,
    requestHash: 'h',
    subaccountId: active,
    amount: 1_000,
    description: 'Saque da semana',
    metadata: { lote: '3' },
    ...overrides,
  });

  const newSubaccount = async (status: string, document: string): Promise<string> => {
    fake.subaccountStatus = status;
    const request = {
      provider_account_id: 'pa_woovi',
      idempotency_key: '',
      request_hash: 'h',
      person: { name: 'Gil Prado', document, email: 'gil@exemplo.com.br' },
      pix_key: { key_type: 'email', key: 'gil@exemplo.com.br' },
      metadata: {},
    };
    return (await subaccounts.create(scope, 'key_full', request as never)).subaccount._id;
  };

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('withdrawals');
    const logger = pino({ level: 'silent' });
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payouts`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['payout.*'] }, async (event) => void published.push(event));
    server = new GrpcServer(logger);
    server.addService(providers.ProvidersServiceService, fake.providerHandlers());
    server.addService(accounts.AccountsServiceService, fake.ownerHandlers());
    const port = await server.listen('127.0.0.1:0');
    const providersClient = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
    const accountsClient = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
    closers.push(() => providersClient.close(), () => accountsClient.close());
    model = registerPayoutModel(db);
    subaccountModel = registerSubaccountModel(db);
    await ensureIndexes(db);
    limit = new DailyLimit(registerPayoutDayModel(db));
    const outbox = new OutboxRelay({ bus, logger });
    const store = new PayoutStore(model, outbox);
    subaccounts = new SubaccountsService(subaccountModel, outbox, providersClient);
    payouts = new PayoutsService(store, limit, providersClient, accountsClient, logger, {
      recheckBaseMs: 100,
      recheckMaxMs: 1_000,
      processingPollMs: 60_000,
      notMadeAfterMs: 60_000,
      balanceTtlMs: 60_000,
      withdrawalSource: (doc) => subaccounts.withdrawalSourceOf(doc),
    });
    withdrawals = new WithdrawalsService(payouts, store, subaccounts, accountsClient, { recheckBaseMs: 100 });
    active = await newSubaccount('active', '529.982.247-25');
  });
  afterAll(async () => {
    closers.forEach((close) => close());
    await server.shutdown(1_000);
    await bus.close();
    await dropTestDatabase(db);
  });

  const eventsOf = (id: string) => published.filter((e) => (e.data.object as { id: string }).id === id).map((e) => e.type);

  it('withdraws from an active subaccount to its own destination: the source sent, payout.* events, outside the daily limit', async () => {
    const dayId = DailyLimit.dayId(scope.merchantId, scope.mode, saoPauloDate(new Date()));
    // The fake's daily limit is R$ 10: a withdrawal above it goes through.
    const { payout, replayed } = await withdrawals.create(command({ amount: 5_000 }));
    expect(replayed).toBe(false);
    expect(payout).toMatchObject({
      status: 'processing',
      amount: 5_000,
      amount_requested: 5_000,
      whole_balance: false,
      subaccount_id: active,
      provider: 'woovi',
      provider_account_id: 'pa_woovi',
      provider_transfer_id: `W${payout._id}`,
      destination: { type: 'subaccount' },
      limit_released: true,
    });
    expect(fake.createSources.get(payout._id)).toEqual({ subaccount_id: active, provider_subaccount_id: `woovi_${active}`, pix_key_type: 'email', pix_key: 'gil@exemplo.com.br' });
    expect(await limit.reservedOn(dayId)).toBe(0);
    const shown = toPublicPayout(toProtoPayout(payout));
    expect(shown).toMatchObject({ subaccount_id: active, destination: { type: 'subaccount' }, amount_requested: 5_000, whole_balance: false });
    await waitFor(() => eventsOf(payout._id).includes('payout.processing'));
    expect(eventsOf(payout._id).sort()).toEqual(['payout.created', 'payout.processing']);
    // The subaccount's Pix key never travels in events.
    expect(JSON.stringify(published)).not.toContain('gil@exemplo.com.br');
  });

  it('one Idempotency-Key: concurrent repeats answer one withdrawal, one transfer; another body under it is a conflict', async () => {
    const same = command({ idempotencyKey: 'wd-same', requestHash: 'h-same', amount: 1_100 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => withdrawals.create(same)));
    expect(new Set(answers.map((a) => a.payout._id)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(fake.creates.get(answers[0]!.payout._id)).toBe(1);
    await expect(withdrawals.create({ ...same, requestHash: 'other' })).rejects.toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('refuses a subaccount not active (409 subaccount_not_active), unknown here (404 id), payouts off (403), bad fields; nothing stored or sent', async () => {
    const pending = await newSubaccount('pending', '111.444.777-35');
    const before = await model.countDocuments();
    const error = await withdrawals.create(command({ subaccountId: pending })).catch((e: AppError) => e);
    expect(error).toMatchObject({ code: 'subaccount_not_active', param: 'id' });
    expect((error as AppError).message).toContain('pending');
    await expect(withdrawals.create(command({ subaccountId: 'sub_unknown' }))).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    await expect(withdrawals.create(command({ scope: { ...scope, mode: 'live' } }))).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    fake.enabled = false;
    await expect(withdrawals.create(command())).rejects.toMatchObject({ code: 'payouts_api_disabled' });
    fake.enabled = true;
    await expect(withdrawals.create(command({ amount: 0 }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    await expect(withdrawals.create(command({ amount: 10.5 }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    await expect(withdrawals.create(command({ description: 'x'.repeat(141) }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'description' });
    await expect(withdrawals.create(command({ idempotencyKey: '' }))).rejects.toMatchObject({ code: 'parameter_missing', param: 'Idempotency-Key' });
    expect(await model.countDocuments()).toBe(before);
  });

  it('a withdrawal whose answer was lost is uncertain, then resolved by reading it back with the subaccount source (check and sync)', async () => {
    fake.behaviour.set(1_234, 'execute_then_timeout');
    const { payout } = await withdrawals.create(command({ amount: 1_234 }));
    expect(payout).toMatchObject({ status: 'pending', uncertain: true, subaccount_id: active });
    await waitFor(() => eventsOf(payout._id).includes('payout.uncertain'));
    const reads = fake.readSources.length;
    const resolved = await payouts.check((await model.findById(payout._id).lean().exec())!);
    expect(resolved).toMatchObject({ status: 'processing', uncertain: false, provider_transfer_id: `W${payout._id}` });
    expect(fake.readSources.slice(reads)).toEqual([{ subaccount_id: active, provider_subaccount_id: `woovi_${active}`, pix_key_type: 'email', pix_key: 'gil@exemplo.com.br' }]);
    expect(fake.creates.get(payout._id)).toBe(1);

    fake.transfers.set(payout._id, { ...fake.transfers.get(payout._id)!, status: 'paid', paid_at: '2026-11-24T12:00:00.000Z' });
    expect(await payouts.sync(scope, payout._id)).toMatchObject({ status: 'paid', subaccount_id: active });
    expect(fake.readSources.at(-1)?.provider_subaccount_id).toBe(`woovi_${active}`);
  });

  it('a provider that withdraws the whole balance: the payout shows what left, amount_requested what was asked', async () => {
    fake.behaviour.set(1_500, 'whole_balance');
    const { payout } = await withdrawals.create(command({ amount: 1_500 }));
    expect(payout).toMatchObject({ status: 'processing', amount: 7_777, amount_requested: 1_500, whole_balance: true });
    expect(toPublicPayout(toProtoPayout(payout))).toMatchObject({ amount: 7_777, amount_requested: 1_500, whole_balance: true });
    await waitFor(() => eventsOf(payout._id).includes('payout.processing'));
    const processing = published.find((e) => e.type === 'payout.processing' && (e.data.object as { id: string }).id === payout._id);
    expect(processing?.data.object).toMatchObject({ amount: 7_777, amount_requested: 1_500, whole_balance: true });
  });

  it('lists a subaccount\'s withdrawals newest first, with has_more and starting_after; an unknown subaccount is 404', async () => {
    const other = await newSubaccount('active', '390.533.447-05');
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push((await withdrawals.create(command({ subaccountId: other, amount: 100 + i }))).payout._id);
    const first = await withdrawals.list(scope, other, { limit: 2, startingAfter: '' });
    expect(first.data.map((d) => d._id)).toEqual([mine[2], mine[1]]);
    expect(first.hasMore).toBe(true);
    const next = await withdrawals.list(scope, other, { limit: 2, startingAfter: mine[1]! });
    expect(next).toEqual({ data: [expect.objectContaining({ _id: mine[0] })], hasMore: false });
    expect((await withdrawals.list(scope, active, { limit: 100, startingAfter: '' })).data.every((d) => d.subaccount_id === active)).toBe(true);
    await expect(withdrawals.list(scope, 'sub_unknown', { limit: 10, startingAfter: '' })).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    await expect(withdrawals.list(scope, other, { limit: 101, startingAfter: '' })).rejects.toMatchObject({ param: 'limit' });
  });

  it('a provider report of a withdrawal\'s transfer is read back from the subaccount (GetTransfer with its source), whole balance included', async () => {
    // The consumer's handler as the bus would call it (the queue itself is the service's, not a test's).
    let handle: ((event: EventEnvelope, delivery: { attempt: number }) => Promise<void>) | undefined;
    const capture = { consume: async (_options: unknown, handler: typeof handle) => void (handle = handler) } as unknown as EventBus;
    const store = new PayoutStore(model, new OutboxRelay({ bus, logger: pino({ level: 'silent' }) }));
    await startTransferConsumer(capture, store, payouts, pino({ level: 'silent' }));

    const { payout } = await withdrawals.create(command({ amount: 2_000 }));
    // The provider then took the whole balance and paid it.
    fake.transfers.set(payout._id, { ...fake.transfers.get(payout._id)!, status: 'paid', amount: 9_900, whole_balance: true, paid_at: '2026-11-24T13:00:00.000Z' });
    const reads = fake.readSources.length;
    const report = { account_id: 'pa_woovi', provider: 'woovi', provider_transfer_id: `W${payout._id}`, status: 'paid', provider_status: 'CONFIRMED', amount: 9_900, via: 'webhook' };
    await handle!({ id: 'evt_1', type: PROVIDER_TRANSFER_UPDATED, created: 0, merchant_id: 'acct_wd', mode: 'test', source: null, data: { object: report } }, { attempt: 1 });
    expect(fake.readSources.slice(reads)).toEqual([expect.objectContaining({ subaccount_id: active, provider_subaccount_id: `woovi_${active}` })]);
    expect(await withdrawals.list(scope, active, { limit: 1, startingAfter: '' })).toMatchObject({ data: [{ _id: payout._id, status: 'paid', amount: 9_900, amount_requested: 2_000, whole_balance: true }] });
  });
});

import { accounts, common, providers } from '@orquestra/contracts';
import { AppError, connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, type EventEnvelope, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { DailyLimit } from '../db/daily-limit';
import { registerPayoutDayModel, registerPayoutModel, type PayoutModel } from '../db/payout.model';
import { PayoutStore, type CallerScope } from '../db/payout.store';
import { scopeOf } from '../grpc/payouts.handlers';
import { PayoutsService, type CreatePayoutCommand } from './payouts.service';

jest.setTimeout(60_000);

/**
 * The providers and accounts collaborators are one small gRPC server answering what the real
 * services promise (CreateTransfer idempotent on payout_id, GetTransfer by payout_id, owner
 * settings and saved keys); it counts the transfers "made at the provider", which must never
 * exceed one per payout. The store and broker are real. The e2e suite runs the real services.
 */
class FakeProvider {
  readonly transfers = new Map<string, providers.Transfer>();
  readonly creates = new Map<string, number>();
  /** What the next CreateTransfer of an amount does. */
  readonly behaviour = new Map<number, 'execute_then_timeout' | 'timeout_unsent' | 'insufficient' | 'paid'>();
  enabled = true;
  dailyLimit = 100_000;

  providerHandlers(): Handlers<typeof providers.ProvidersServiceService> {
    const account = (id: string, provider: string): providers.ProviderAccount =>
      providers.ProviderAccount.fromPartial({ id, merchant_id: 'acct_po', mode: common.Mode.MODE_TEST, provider, name: provider, priority: 1, enabled: true, methods: ['pix'] });
    const accountsList = [account('pa_efi', 'efi'), account('pa_mp', 'mercadopago')];
    const handlers: Partial<Handlers<typeof providers.ProvidersServiceService>> = {
      listAccounts: async () => ({ accounts: accountsList }),
      getAccount: async ({ account_id }) => {
        const found = accountsList.find((a) => a.id === account_id);
        if (!found) throw new AppError('not_found', { param: 'account_id' });
        return { account: found };
      },
      listProviders: async () => ({
        providers: ['efi', 'mercadopago'].map((code) => providers.ProviderInfo.fromPartial({ code, name: code, capabilities: { payouts: code === 'efi', payout_destinations: code === 'efi' ? ['pix_key'] : [] } })),
      }),
      getBalance: async ({ account: ref }) => {
        if (ref?.account_id === 'pa_mp') throw new AppError('provider_unavailable');
        return { balance: { available: 500_000, pending: 1_000, currency: 'BRL', as_of: new Date().toISOString() }, provider: 'efi' };
      },
      createTransfer: async ({ payout_id, amount }) => {
        this.creates.set(payout_id, (this.creates.get(payout_id) ?? 0) + 1);
        const existing = this.transfers.get(payout_id);
        if (existing) return { transfer: existing, provider: 'efi' };
        const behaviour = this.behaviour.get(amount);
        if (behaviour === 'insufficient') throw new AppError('insufficient_balance', { message: 'Saldo insuficiente na conta Efí.' });
        if (behaviour === 'timeout_unsent') throw new AppError('provider_timeout');
        const transfer = providers.Transfer.fromPartial({
          provider_transfer_id: `E${payout_id}`,
          payout_id,
          status: behaviour === 'paid' ? 'paid' : 'processing',
          provider_status: 'EM_PROCESSAMENTO',
          amount,
        });
        this.transfers.set(payout_id, transfer);
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (behaviour === 'execute_then_timeout') throw new AppError('provider_timeout');
        return { transfer, provider: 'efi' };
      },
      getTransfer: async ({ payout_id }) => {
        const transfer = this.transfers.get(payout_id);
        if (!transfer) throw new AppError('not_found', { param: 'payout_id' });
        return { transfer };
      },
    };
    return handlers as Handlers<typeof providers.ProvidersServiceService>;
  }

  ownerHandlers(): Handlers<typeof accounts.AccountsServiceService> {
    const key = accounts.PayoutDestination.fromPartial({ id: 'pdest_1', mode: common.Mode.MODE_TEST, key_type: 'email', key: 'financeiro@loja.com.br', label: 'Conta da empresa' });
    const handlers: Partial<Handlers<typeof accounts.AccountsServiceService>> = {
      getPayoutSettings: async () => ({ settings: { api_enabled: this.enabled, daily_limit: this.dailyLimit, updated_at: '' } }),
      listPayoutDestinations: async () => ({ destinations: [key] }),
      getPayoutDestination: async ({ destination_id }) => {
        if (destination_id !== 'pdest_1') throw new AppError('not_found', { param: 'destination_id' });
        return { destination: key };
      },
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

describe('payouts against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let server: GrpcServer;
  let model: PayoutModel;
  let service: PayoutsService;
  let limit: DailyLimit;
  const fake = new FakeProvider();
  const published: EventEnvelope[] = [];
  const closers: Array<() => void> = [];
  const scope: CallerScope = { merchantId: 'acct_po', mode: 'test' };
  let keys = 0;

  const command = (overrides: Partial<CreatePayoutCommand> = {}): CreatePayoutCommand => ({
    scope,
    keyId: 'key_full',
    idempotencyKey: `k-${++keys}`,
    requestHash: 'h',
    providerAccountId: 'pa_efi',
    amount: 1_000,
    destination: { type: 'pix_key', destinationId: 'pdest_1' },
    description: 'Retirada semanal',
    metadata: { lote: '7' },
    ...overrides,
  });

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('payouts');
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
    const days = registerPayoutDayModel(db);
    await ensureIndexes(db);
    limit = new DailyLimit(days);
    service = new PayoutsService(new PayoutStore(model, new OutboxRelay({ bus, logger })), limit, providersClient, accountsClient, logger, {
      recheckBaseMs: 100,
      recheckMaxMs: 1_000,
      processingPollMs: 60_000,
      // Long enough that a check right after the create surely falls inside it on a loaded machine.
      notMadeAfterMs: 1_500,
      balanceTtlMs: 60_000,
    });
  });
  afterAll(async () => {
    closers.forEach((close) => close());
    await server.shutdown(1_000);
    await bus.close();
    await dropTestDatabase(db);
  });

  const eventsOf = (id: string) => published.filter((e) => (e.data.object as { id: string }).id === id).map((e) => e.type);

  it('refuses while the owner has payouts off (403 payouts_api_disabled), creating nothing', async () => {
    fake.enabled = false;
    const before = await model.countDocuments();
    await expect(service.create(command())).rejects.toMatchObject({ code: 'payouts_api_disabled' });
    expect(await model.countDocuments()).toBe(before);
    fake.enabled = true;
  });

  it('pays out to a saved Pix key: processing, then paid from the provider report; events once each; the key masked', async () => {
    const { payout } = await service.create(command({ amount: 2_500 }));
    expect(payout).toMatchObject({ status: 'processing', amount: 2_500, provider: 'efi', provider_transfer_id: `E${payout._id}`, uncertain: false });
    expect(payout.destination).toEqual({ type: 'pix_key', destination_id: 'pdest_1', key_type: 'email', key_masked: 'fi********@loja.com.br', label: 'Conta da empresa' });
    const paid = { ...fake.transfers.get(payout._id)!, status: 'paid', paid_at: '2026-11-24T12:00:00.000Z', fee: 0 };
    await Promise.all([service.applyTransfer(payout._id, paid), service.applyTransfer(payout._id, paid)]);
    const read = await service.get(scope, payout._id);
    expect(read).toMatchObject({ status: 'paid', fee: 0 });
    expect(read.paid_at?.toISOString()).toBe('2026-11-24T12:00:00.000Z');
    await waitFor(() => eventsOf(payout._id).includes('payout.paid'));
    expect(eventsOf(payout._id).sort()).toEqual(['payout.created', 'payout.paid', 'payout.processing']);
    expect(JSON.stringify(published)).not.toContain('financeiro@loja.com.br');
  });

  it('a paid payout the bank returns (Stripe payout.failed after payout.paid) ends failed and gives the limit back', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const dayId = DailyLimit.dayId(scope.merchantId, scope.mode, day);
    const { payout } = await service.create(command({ amount: 2_222 }));
    const transfer = fake.transfers.get(payout._id)!;
    await service.applyTransfer(payout._id, { ...transfer, status: 'paid' });
    const reserved = await limit.reservedOn(dayId);
    const returned = await service.applyTransfer(payout._id, { ...transfer, status: 'failed', failure_code: 'account_closed', failure_reason: 'A conta de destino foi encerrada.' });
    expect(returned).toMatchObject({ status: 'failed', failure_code: 'account_closed', limit_released: true });
    expect(await limit.reservedOn(dayId)).toBe(reserved - 2_222);
    // A stale "processing" afterwards changes nothing.
    expect((await service.applyTransfer(payout._id, { ...transfer, status: 'processing' })).status).toBe('failed');
  });

  it('one Idempotency-Key, ten concurrent requests: one payout, one transfer; another body under it is a conflict', async () => {
    const same = command({ idempotencyKey: 'same-key', requestHash: 'h-same', amount: 1_100 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => service.create(same)));
    expect(new Set(answers.map((a) => a.payout._id)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(fake.creates.get(answers[0]!.payout._id)).toBe(1);
    await expect(service.create({ ...same, requestHash: 'other' })).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it('30 concurrent payouts against the daily limit never exceed it', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const dayId = DailyLimit.dayId(scope.merchantId, scope.mode, day);
    fake.dailyLimit = (await limit.reservedOn(dayId)) + 10_000;
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => service.create(command({ amount: 1_000 }))));
    const created = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(20);
    expect(refused.every((r) => (r.reason as AppError).code === 'payout_limit_exceeded' && (r.reason as AppError).param === 'amount')).toBe(true);
    expect((refused[0]!.reason as AppError).message).toContain('limite diário');
    expect(await limit.reservedOn(dayId)).toBe(fake.dailyLimit);
    fake.dailyLimit = 100_000_000;
  });

  it('a transfer made whose answer was lost is uncertain, then resolved by reading it back: exactly one transfer', async () => {
    fake.behaviour.set(1_234, 'execute_then_timeout');
    const { payout } = await service.create(command({ amount: 1_234 }));
    expect(payout).toMatchObject({ status: 'pending', uncertain: true });
    await waitFor(() => eventsOf(payout._id).includes('payout.uncertain'));
    const resolved = await service.check((await model.findById(payout._id).lean().exec())!);
    expect(resolved).toMatchObject({ status: 'processing', uncertain: false, provider_transfer_id: `E${payout._id}` });
    expect(fake.creates.get(payout._id)).toBe(1);
  });

  it('a transfer never made (the provider still does not know it after the grace) fails without a second send, and gives the limit back', async () => {
    fake.behaviour.set(1_333, 'timeout_unsent');
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const dayId = DailyLimit.dayId(scope.merchantId, scope.mode, day);
    const { payout } = await service.create(command({ amount: 1_333 }));
    const reserved = await limit.reservedOn(dayId);
    const early = await service.check((await model.findById(payout._id).lean().exec())!);
    expect(early).toMatchObject({ status: 'pending', uncertain: true, checks: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_550));
    const failed = await service.check((await model.findById(payout._id).lean().exec())!);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'transfer_not_made' });
    expect(fake.creates.get(payout._id)).toBe(1);
    expect(await limit.reservedOn(dayId)).toBe(reserved - 1_333);
  });

  it('a refusal (insufficient balance) is a 422 in Portuguese, the payout failed, the limit given back; a replay answers the same refusal', async () => {
    fake.behaviour.set(999_999, 'insufficient');
    const refused = command({ amount: 999_999, idempotencyKey: 'refused-key' });
    await expect(service.create(refused)).rejects.toMatchObject({ code: 'insufficient_balance', param: 'amount' });
    const stored = await model.findOne({ idempotency_key: 'refused-key' }).lean().exec();
    expect(stored).toMatchObject({ status: 'failed', failure_code: 'insufficient_balance', limit_released: true });
    await expect(service.create(refused)).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(fake.creates.get(stored!._id)).toBe(1);
  });

  it('refuses what cannot be paid out, in Portuguese with the param', async () => {
    await expect(service.create(command({ providerAccountId: 'pa_mp' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'provider_account_id' });
    await expect(service.create(command({ providerAccountId: 'pa_nope' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'provider_account_id' });
    await expect(service.create(command({ destination: { type: 'pix_key', destinationId: 'pdest_x' } }))).rejects.toMatchObject({ param: 'destination.destination_id' });
    await expect(service.create(command({ destination: { type: 'boleto', destinationId: '' } }))).rejects.toMatchObject({ param: 'destination.type' });
    await expect(service.create(command({ amount: 0 }))).rejects.toMatchObject({ param: 'amount' });
    await expect(service.create(command({ idempotencyKey: '' }))).rejects.toMatchObject({ code: 'parameter_missing', param: 'Idempotency-Key' });
    expect(() => scopeOf({ merchant_id: 'acct_po', mode: common.Mode.MODE_TEST, key_id: 'key_r', restricted: true } as common.Caller)).toThrow(expect.objectContaining({ code: 'restricted_key' }));
  });

  it('balances: each enabled account read from its provider, an unreadable one says so, and which can pay out', async () => {
    const answer = await service.balances(scope);
    expect(answer.payouts_api_enabled).toBe(true);
    expect(answer.data.find((b) => b.provider_account_id === 'pa_efi')).toMatchObject({ available: 500_000, pending: 1_000, payouts_supported: true, destination_types: ['pix_key'] });
    const mp = answer.data.find((b) => b.provider_account_id === 'pa_mp');
    expect(mp).toMatchObject({ payouts_supported: false, destination_types: [] });
    expect(mp?.available).toBeUndefined();
    expect(mp?.error).toContain('Não foi possível consultar o saldo');
    expect(await service.destinations(scope)).toEqual([{ type: 'pix_key', destination_id: 'pdest_1', key_type: 'email', key: 'fi********@loja.com.br', label: 'Conta da empresa' }]);
  });
});

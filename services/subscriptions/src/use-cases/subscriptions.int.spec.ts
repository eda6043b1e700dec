import { common, customers, providers } from '@orquestra/contracts';
import { AppError, connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, type EventEnvelope, type Handlers, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerIdempotencyRecordModel, type IdempotencyRecordModel } from '../db/idempotency-record.model';
import { registerSubscriptionModel, type SubscriptionModel } from '../db/subscription.model';
import { SubscriptionStore, type CallerScope } from '../db/subscription.store';
import { SubscriptionsService, type CreateSubscriptionCommand } from './subscriptions.service';

jest.setTimeout(60_000);

/**
 * The providers collaborator is a small gRPC server answering only the recurrence RPCs and the
 * account lookups (the e2e suite runs the real providers service); the store and broker are real.
 */
class FakeRecurrences {
  readonly created = new Map<string, number>();
  readonly status = new Map<string, string>();
  readonly refusedOnce = new Set<string>();

  handlers(): Handlers<typeof providers.ProvidersServiceService> {
    const account = (id: string, provider: string, priority: number): providers.ProviderAccount => ({
      id, merchant_id: 'acct_sub', mode: common.Mode.MODE_TEST, provider, name: provider, priority, enabled: true, methods: ['pix'], requires: [], fees: [],
      credentials_last4: {}, breaker_state: 'closed', created_at: '', updated_at: '', webhook_url: '', webhook_manual_setup: false, keeps_metadata: false, hosted_checkout: [],
      vault_cards: false, vault_cards_need_cvc: false,
    });
    // Stripe first by priority, but it has no Pix Automático: Efí is the account chosen.
    const accounts = [account('pa_stripe', 'stripe', 1), account('pa_efi', 'efi', 2)];
    const recurrence = (id: string): providers.Recurrence => ({
      provider_recurrence_id: `RR${id}`,
      status: this.status.get(id) ?? 'pending',
      provider_status: 'CRIADA',
      cycles: 'ours',
      ...(this.status.get(id) === 'pending' ? { approval: { qr_code: `000201${id}` }, approval_charge_id: `cob${id}` } : {}),
      cycle_charge_ids: [],
    });
    const idOf = (providerRecurrenceId: string) => providerRecurrenceId.slice(2);
    const handlers: Partial<Handlers<typeof providers.ProvidersServiceService>> = {
      listAccounts: async () => ({ accounts }),
      getAccount: async ({ account_id }) => {
        const found = accounts.find((a) => a.id === account_id);
        if (!found) throw new AppError('not_found', { param: 'account_id' });
        return { account: found };
      },
      listProviders: async () => ({
        providers: ['stripe', 'efi'].map((code) => ({ code, name: code, credential_fields: [], amount_unit: 'cents', notes: '', capabilities: { methods: ['pix'], partial_refunds: false, disputes: false, dispute_evidence: false, payouts: false, subscriptions: code === 'efi', card_vault: false, keeps_metadata: false, customer_requires: {}, hosted_checkout: [], payout_destinations: [], max_splits: 0 } })),
      }),
      createRecurrence: async ({ subscription_id, account: ref, description }) => {
        if (ref?.account_id !== 'pa_efi') throw new AppError('parameter_invalid', { param: 'provider_account_id' });
        // Idempotent on the subscription id, as the adapters are.
        this.created.set(subscription_id, (this.created.get(subscription_id) ?? 0) + 1);
        // A refusal the first time a description is seen (the provider down for a moment, say).
        if (description.startsWith('Recusa') && !this.refusedOnce.has(description)) {
          this.refusedOnce.add(description);
          await new Promise((resolve) => setTimeout(resolve, 100));
          throw new AppError('provider_rejected', { message: 'O provedor recusou.' });
        }
        if (!this.status.has(subscription_id)) this.status.set(subscription_id, 'pending');
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { recurrence: recurrence(subscription_id), provider: 'efi' };
      },
      cancelRecurrence: async ({ provider_recurrence_id }) => {
        this.status.set(idOf(provider_recurrence_id), 'canceled');
        return { recurrence: recurrence(idOf(provider_recurrence_id)) };
      },
      approveRecurrenceInSandbox: async ({ provider_recurrence_id }) => {
        const id = idOf(provider_recurrence_id);
        if (this.status.get(id) !== 'pending') throw new AppError('provider_rejected');
        this.status.set(id, 'active');
        return { recurrence: recurrence(id) };
      },
    };
    return handlers as Handlers<typeof providers.ProvidersServiceService>;
  }
}

/** Payments' UpsertCustomer as payments promises it: one record per merchant, mode and document. */
class FakeCustomers {
  readonly byDocument = new Map<string, string>();

  handlers(): Handlers<typeof customers.CustomersServiceService> {
    const handlers: Partial<Handlers<typeof customers.CustomersServiceService>> = {
      upsertCustomer: async ({ caller, customer }) => {
        if (customer?.name === 'Cliente Indisponível') throw new AppError('service_unavailable');
        const key = `${caller?.merchant_id}:${caller?.mode}:${customer?.document}`;
        const created = !this.byDocument.has(key);
        if (created) this.byDocument.set(key, `cus_fake${this.byDocument.size + 1}`);
        const id = this.byDocument.get(key)!;
        return { customer: customers.CustomerRecord.fromPartial({ id, name: customer?.name ?? '', document: customer?.document ?? '' }), created };
      },
    };
    return handlers as Handlers<typeof customers.CustomersServiceService>;
  }
}

describe('subscriptions against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let server: GrpcServer;
  let client: RpcClient<typeof providers.ProvidersServiceService>;
  let customersClient: RpcClient<typeof customers.CustomersServiceService>;
  const fakeCustomers = new FakeCustomers();
  let model: SubscriptionModel;
  let service: SubscriptionsService;
  let idempotencyRecords: IdempotencyRecordModel;
  const fake = new FakeRecurrences();
  const published: EventEnvelope[] = [];
  const scope: CallerScope = { merchantId: 'acct_sub', mode: 'test' };

  const command = (overrides: Partial<CreateSubscriptionCommand> = {}): CreateSubscriptionCommand => ({
    scope,
    keyId: 'key_full',
    idempotencyKey: '',
    requestHash: 'h',
    customer: { name: 'Ana Souza', document: '52998224725' },
    frequency: 'monthly',
    amount: 4_990,
    description: 'Plano mensal',
    metadata: {},
    tracking: {},
    ...overrides,
  });

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('subscriptions');
    const logger = pino({ level: 'silent' });
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}subscriptions`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['subscription.*'] }, async (event) => void published.push(event));
    server = new GrpcServer(logger);
    server.addService(providers.ProvidersServiceService, fake.handlers());
    server.addService(customers.CustomersServiceService, fakeCustomers.handlers());
    const port = await server.listen('127.0.0.1:0');
    client = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
    customersClient = createRpcClient(customers.CustomersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
    model = registerSubscriptionModel(db);
    const idempotency = registerIdempotencyRecordModel(db);
    idempotencyRecords = idempotency;
    await ensureIndexes(db);
    service = new SubscriptionsService(new SubscriptionStore(model, new OutboxRelay({ bus, logger })), idempotency, client, customersClient, { approvalExpiresInSeconds: 3_600, idempotencyWaitMs: 5_000 });
  });
  afterAll(async () => {
    client.close();
    customersClient.close();
    await server.shutdown(1_000);
    await bus.close();
    await dropTestDatabase(db);
  });

  const eventsOf = (id: string, type: string) => published.filter((event) => event.type === type && (event.data.object as { id: string }).id === id);

  it('20 concurrent creates with one Idempotency-Key make one subscription, one recurrence and one event', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.create(command({ idempotencyKey: 'plan-20', requestHash: 'h-20' }))));
    const ids = new Set(answers.map((answer) => answer.subscription._id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect(await model.countDocuments({ idempotency_key: 'plan-20' })).toBe(1);
    expect(fake.created.get(id)).toBe(1);
    expect(answers[0]!.subscription).toMatchObject({ status: 'pending', provider: 'efi', provider_account_id: 'pa_efi', amount: 4_990, first_amount: 4_990, approval: { qr_code: `000201${id}` } });
    await waitFor(() => eventsOf(id, 'subscription.created').length > 0);
    expect(eventsOf(id, 'subscription.created')).toHaveLength(1);
    expect(eventsOf(id, 'subscription.created')[0]!.data.object).toMatchObject({ object: 'subscription', status: 'pending', approval: { qr_code: `000201${id}` } });
  });

  it('a failed creation is shared by the repeats that waited on it, and retried under the same id by a later one', async () => {
    const failing = command({ idempotencyKey: 'plan-fail', requestHash: 'h-fail', description: 'Recusa uma vez' });
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => service.create(failing)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill('rejected'));
    for (const answer of answers) expect((answer as PromiseRejectedResult).reason).toMatchObject({ code: 'provider_rejected', message: 'O provedor recusou.' });
    const later = await service.create(failing);
    expect(later.replayed).toBe(false);
    expect(fake.created.get(later.subscription._id)).toBe(2);
    const again = await service.create(failing);
    expect(again).toMatchObject({ replayed: true, subscription: { _id: later.subscription._id } });
  });

  it('never creates beside a request still creating under the key; takes over one that died long ago', async () => {
    const claimedBy = (key: string, at: Date) =>
      idempotencyRecords.create({ _id: `acct_sub:test:${key}`, merchant_id: 'acct_sub', mode: 'test', key, request_hash: `h-${key}`, subscription_id: `sub_${key}`, provider_account_id: 'pa_efi', created_at: at });
    await claimedBy('busy', new Date());
    await expect(service.create(command({ idempotencyKey: 'busy', requestHash: 'h-busy' }))).rejects.toMatchObject({ code: 'idempotency_in_progress' });
    expect(fake.created.get('sub_busy')).toBeUndefined();

    await claimedBy('dead', new Date(Date.now() - 10 * 60_000));
    const answer = await service.create(command({ idempotencyKey: 'dead', requestHash: 'h-dead' }));
    expect(answer.subscription._id).toBe('sub_dead');
    expect(fake.created.get('sub_dead')).toBe(1);
  });

  it('refuses the same Idempotency-Key with another body', async () => {
    await service.create(command({ idempotencyKey: 'plan-conflict', requestHash: 'h-1' }));
    await expect(service.create(command({ idempotencyKey: 'plan-conflict', requestHash: 'h-2' }))).rejects.toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('refuses bad input before anything is created, in Portuguese with the param', async () => {
    const before = fake.created.size;
    await expect(service.create(command({ frequency: 'daily' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'frequency', message: expect.stringMatching(/^O campo frequency/) });
    await expect(service.create(command({ providerAccountId: 'pa_stripe' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'provider_account_id' });
    await expect(service.create(command({ providerAccountId: 'pa_nope' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'provider_account_id', message: expect.stringMatching(/^Não existe conta de provedor pa_nope/) });
    expect(fake.created.size).toBe(before);
  });

  it('simulate approves: pending → active, the approval gone, subscription.activated; never in live mode', async () => {
    const { subscription } = await service.create(command());
    await expect(service.simulate({ ...scope, mode: 'live' }, subscription._id)).rejects.toMatchObject({ code: 'live_mode_forbidden' });
    const active = await service.simulate(scope, subscription._id);
    expect(active).toMatchObject({ status: 'active', approval: null });
    await waitFor(() => eventsOf(subscription._id, 'subscription.activated').length > 0);
    expect(eventsOf(subscription._id, 'subscription.activated')[0]!.data.object).toMatchObject({ status: 'active', approval: null });
    await expect(service.simulate(scope, subscription._id)).rejects.toMatchObject({ code: 'payment_not_simulatable', param: 'id' });
  });

  it('cancel racing simulate ends in one final state, canceled, with one subscription.canceled', async () => {
    for (let round = 0; round < 5; round++) {
      const { subscription } = await service.create(command());
      const [canceled, simulated] = await Promise.allSettled([service.cancel(scope, subscription._id), service.simulate(scope, subscription._id)]);
      expect(canceled).toMatchObject({ status: 'fulfilled', value: { status: 'canceled', approval: null, next_charge_date: null } });
      if (simulated.status === 'rejected') expect(simulated.reason).toMatchObject({ code: 'payment_not_simulatable' });
      expect(await service.get(scope, subscription._id)).toMatchObject({ status: 'canceled' });
      await waitFor(() => eventsOf(subscription._id, 'subscription.canceled').length > 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(eventsOf(subscription._id, 'subscription.canceled')).toHaveLength(1);
    }
  });

  it('lists newest first with status filter and cursor; a restricted key sees only its own', async () => {
    const merchant: CallerScope = { merchantId: 'acct_list', mode: 'test' };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await service.create(command({ scope: merchant, keyId: i < 2 ? 'key_bot' : 'key_full' }))).subscription._id);
    await service.cancel(merchant, ids[0]!);
    const first = await service.list(merchant, { limit: 2 });
    expect(first.data.map((doc) => doc._id)).toEqual(ids.slice(0, 2));
    expect(first.hasMore).toBe(true);
    const rest = await service.list(merchant, { limit: 100, startingAfter: ids[1]! });
    expect(rest.data.map((doc) => doc._id)).toEqual(ids.slice(2));
    expect(rest.hasMore).toBe(false);
    expect((await service.list(merchant, { limit: 10, status: 'canceled' })).data.map((doc) => doc._id)).toEqual([ids[0]]);
    expect((await service.list({ ...merchant, restrictedKeyId: 'key_bot' }, { limit: 10 })).data.map((doc) => doc._id)).toEqual(ids.slice(3));
    await expect(service.get({ ...merchant, restrictedKeyId: 'key_bot' }, ids[0]!)).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    await expect(service.list(merchant, { limit: 101 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    await expect(service.list(merchant, { limit: 10, status: 'paid' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'status' });
  });
  it('the payer is a customer record from creation on (payments, by document): a real cus_ id while pending, the same for every subscription of that document', async () => {
    const first = await service.create(command({ idempotencyKey: 'plan-customer', requestHash: 'h-customer' }));
    const id = first.subscription.customer_id;
    expect(id).toMatch(/^cus_/);
    expect(first.subscription.status).toBe('pending');
    expect((await model.findById(first.subscription._id).lean().exec())?.customer_id).toBe(id);
    // A repeat of the key, and another subscription of the same payer: the same record.
    expect((await service.create(command({ idempotencyKey: 'plan-customer', requestHash: 'h-customer' }))).subscription.customer_id).toBe(id);
    expect((await service.create(command({ frequency: 'weekly' }))).subscription.customer_id).toBe(id);
    expect((await service.create(command({ customer: { name: 'Bruno Lima', document: '11144477735' } }))).subscription.customer_id).not.toBe(id);
  });

  it('a customer record payments cannot make leaves nothing half-made: no recurrence, no subscription', async () => {
    const recurrences = fake.created.size;
    const stored = await model.countDocuments({});
    await expect(service.create(command({ customer: { name: 'Cliente Indisponível', document: '52998224725' } }))).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(fake.created.size).toBe(recurrences);
    expect(await model.countDocuments({})).toBe(stored);
  });
});

async function waitFor(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

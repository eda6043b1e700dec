import { common, payouts, providers } from '@orquestra/contracts';
import { AppError, connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, type EventEnvelope, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventuallyExpect, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerSubaccountModel, type SubaccountModel } from '../db/subaccount.model';
import type { CallerScope } from '../db/payout.store';
import { SubaccountsService } from './subaccounts.service';

jest.setTimeout(60_000);

/**
 * The providers collaborator is a small gRPC server answering the subaccount RPCs as the providers
 * service promises (idempotent on subaccount_id, a missing required field refused naming it); it
 * counts the subaccounts "made at the provider", which must never exceed one per id. The store
 * and broker are real; the e2e suite runs the real services.
 */
class FakeProvider {
  readonly made = new Map<string, number>();
  status = 'pending';
  /** What getSubaccount answers as the split target ('' keeps the stored one). */
  splitTarget = '';

  handlers(): Handlers<typeof providers.ProvidersServiceService> {
    const account = providers.ProviderAccount.fromPartial({ id: 'pa_asaas', provider: 'asaas', enabled: true, mode: common.Mode.MODE_TEST });
    const handlers: Partial<Handlers<typeof providers.ProvidersServiceService>> = {
      getAccount: async ({ account_id }) => {
        if (account_id === 'pa_mp') return { account: { ...account, id: 'pa_mp', provider: 'mercadopago' } };
        if (account_id !== 'pa_asaas') throw new AppError('not_found', { param: 'account_id' });
        return { account };
      },
      listProviders: async () => ({
        providers: ['asaas', 'mercadopago'].map((code) => providers.ProviderInfo.fromPartial({ code, capabilities: { subaccounts: { supported: code === 'asaas', requires: code === 'asaas' ? ['email'] : [] } } })),
      }),
      createSubaccount: async ({ subaccount_id, person }) => {
        if (!person?.email) throw new AppError('parameter_missing', { param: 'email', message: 'O provedor desta conta (Asaas) exige email: informe email.' });
        this.made.set(subaccount_id, (this.made.get(subaccount_id) ?? 0) + 1);
        return { subaccount: { provider_subaccount_id: `acc_${subaccount_id}`, status: 'pending', status_detail: 'Em análise na Asaas.', provider_status: 'PENDING', details: { wallet_id: 'w1', login_email: person.email }, split_target: `wal_${subaccount_id}` }, provider: 'asaas' };
      },
      getSubaccount: async ({ provider_subaccount_id }) => ({
        subaccount: { provider_subaccount_id, status: this.status, status_detail: this.status === 'active' ? 'Aprovada.' : 'Em análise na Asaas.', provider_status: 'X', details: { wallet_id: 'w1' }, split_target: this.splitTarget },
      }),
      getSubaccountBalance: async () => ({ balance: { available: 12_345, currency: 'BRL', as_of: '2026-11-24T12:00:00.000Z' } }),
    };
    return handlers as Handlers<typeof providers.ProvidersServiceService>;
  }
}

describe('subaccounts against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let server: GrpcServer;
  let model: SubaccountModel;
  let service: SubaccountsService;
  const fake = new FakeProvider();
  const published: EventEnvelope[] = [];
  const closers: Array<() => void> = [];
  const scope: CallerScope = { merchantId: 'acct_sa', mode: 'test' };

  const request = (overrides: Partial<payouts.CreateSubaccountRequest> = {}): payouts.CreateSubaccountRequest =>
    payouts.CreateSubaccountRequest.fromPartial({
      provider_account_id: 'pa_asaas',
      idempotency_key: '',
      request_hash: 'h',
      person: { name: 'Ana Lima', document: '529.982.247-25', email: 'ana.lima@exemplo.com.br' },
      metadata: { vendedor: '42' },
      ...overrides,
    });

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('subaccounts');
    const logger = pino({ level: 'silent' });
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payouts`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['subaccount.*'] }, async (event) => void published.push(event));
    server = new GrpcServer(logger);
    server.addService(providers.ProvidersServiceService, fake.handlers());
    const port = await server.listen('127.0.0.1:0');
    const client = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
    closers.push(() => client.close());
    model = registerSubaccountModel(db);
    await ensureIndexes(db);
    service = new SubaccountsService(model, new OutboxRelay({ bus, logger }), client);
  });
  afterAll(async () => {
    closers.forEach((close) => close());
    await server.shutdown(1_000);
    await bus.close();
    await dropTestDatabase(db);
  });

  it('creates one at the provider, pending, type from the document, subaccount.created once; details masked when shown', async () => {
    const { subaccount } = await service.create(scope, 'key_full', request());
    expect(subaccount).toMatchObject({ provisioning: false, status: 'pending', type: 'individual', document: '52998224725', provider: 'asaas', provider_subaccount_id: `acc_${subaccount._id}` });
    expect(subaccount._id).toMatch(/^sub_/);
    expect(fake.made.get(subaccount._id)).toBe(1);
    const { toProtoSubaccount } = await import('./subaccounts.service');
    expect(toProtoSubaccount(subaccount).details['login_email']).toBe('an******@exemplo.com.br');
    // The outbox relay publishes in the background: wait for the event, then make sure it stays one.
    const createdEvents = () => published.filter((e) => e.type === 'subaccount.created' && (e.data.object as { id: string }).id === subaccount._id);
    await eventuallyExpect(() => expect(createdEvents()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(createdEvents()).toHaveLength(1);
  });

  it('a field the provider requires and the body lacks: 400 naming it, nothing stored', async () => {
    const before = await model.countDocuments();
    await expect(service.create(scope, 'key_full', request({ person: { name: 'Sem Email', document: '52998224725' } as never }))).rejects.toMatchObject({ code: 'parameter_missing', param: 'email' });
    await expect(service.create(scope, 'key_full', request({ person: { name: 'X', document: '529.982.247-26' } as never }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'document' });
    await expect(service.create(scope, 'key_full', request({ type: 'company' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'type' });
    await expect(service.create(scope, 'key_full', request({ provider_account_id: 'pa_mp' }))).rejects.toMatchObject({ param: 'provider_account_id' });
    expect(await model.countDocuments()).toBe(before);
  });

  it('one Idempotency-Key: one subaccount, one made at the provider; a creation that died halfway is finished by the repeat', async () => {
    const keyed = request({ idempotency_key: 'seller-7', request_hash: 'h7' });
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => service.create(scope, 'key_full', keyed)));
    const answers = settled.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ subaccount: { _id: string } }>).value);
    // The first creates it; repeats while it runs are told so (409), never a second create.
    expect(settled.filter((r) => r.status === 'rejected').every((r) => ((r as PromiseRejectedResult).reason as AppError).code === 'idempotency_in_progress')).toBe(true);
    const again = await service.create(scope, 'key_full', keyed);
    expect(again.replayed).toBe(true);
    expect(new Set([...answers.map((a) => a.subaccount._id), again.subaccount._id]).size).toBe(1);
    expect(fake.made.get(again.subaccount._id)).toBe(1);
    await expect(service.create(scope, 'key_full', { ...keyed, request_hash: 'other' })).rejects.toMatchObject({ code: 'idempotency_conflict' });

    // As if the request died after storing it and before the provider answered.
    const dead = new Date(Date.now() - 10 * 60_000);
    await model.create({ ...(await model.findById(again.subaccount._id).lean().exec())!, _id: 'sub_halfway', idempotency_ref: 'acct_sa:test:key:halfway', request_hash: 'h', provisioning: true, provider_subaccount_id: '', updated_at: dead });
    const finished = await service.create(scope, 'key_full', request({ idempotency_key: 'halfway', request_hash: 'h' }));
    expect(finished).toMatchObject({ replayed: true, subaccount: { _id: 'sub_halfway', provisioning: false, provider_subaccount_id: 'acc_sub_halfway' } });
  });

  it('lists (q by name, document or e-mail), updates name and metadata here only, syncs the status with subaccount.updated, reads the balance', async () => {
    const { subaccount } = await service.create(scope, 'key_full', request({ person: { name: 'Bruno Costa', document: '11222333000181', email: 'bruno@loja.com' } as never }));
    expect(subaccount.type).toBe('company');
    expect((await service.list(scope, { status: '', providerAccountId: '', q: 'bruno', limit: 10, startingAfter: '' })).data.map((d) => d._id)).toEqual([subaccount._id]);
    expect((await service.list(scope, { status: '', providerAccountId: '', q: '11.222.333/0001-81', limit: 10, startingAfter: '' })).data.map((d) => d._id)).toEqual([subaccount._id]);
    await expect(service.list(scope, { status: 'open', providerAccountId: '', q: '', limit: 10, startingAfter: '' })).rejects.toMatchObject({ param: 'status' });

    const renamed = await service.update(scope, subaccount._id, { name: 'Bruno Costa ME', metadata: { loja: 'centro' } });
    expect(renamed).toMatchObject({ name: 'Bruno Costa ME', metadata: { loja: 'centro' } });
    fake.status = 'active';
    const synced = await service.sync(scope, subaccount._id);
    expect(synced).toMatchObject({ status: 'active', status_detail: 'Aprovada.' });
    expect(await service.sync(scope, subaccount._id)).toMatchObject({ status: 'active' });
    const updatedEvents = () => published.filter((e) => e.type === 'subaccount.updated' && (e.data.object as { id: string }).id === subaccount._id);
    await eventuallyExpect(() => expect(updatedEvents()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updatedEvents()).toHaveLength(2);
    expect(await service.balance(scope, subaccount._id)).toEqual({ available: 12_345, currency: 'BRL', as_of: '2026-11-24T12:00:00.000Z' });
    await expect(service.get({ ...scope, mode: 'live' }, subaccount._id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('applies a provider report of a status once (by our id or the provider id), and waits for one still being created', async () => {
    const { subaccount } = await service.create(scope, 'key_full', request({ person: { name: 'Carla Dias', document: '111.444.777-35', email: 'carla@exemplo.com.br' } as never }));
    const report = { account_id: 'pa_asaas', provider: 'asaas', provider_subaccount_id: subaccount.provider_subaccount_id, status: 'refused' as const, status_detail: 'Documento ilegível.', provider_status: 'REJECTED', via: 'webhook' as const };
    expect(await service.applyReported(report)).toBe('applied');
    expect(await service.applyReported({ ...report, subaccount_id: subaccount._id })).toBe('unchanged');
    expect(await service.get(scope, subaccount._id)).toMatchObject({ status: 'refused', status_detail: 'Documento ilegível.' });
    expect(await service.applyReported({ ...report, provider_subaccount_id: 'acc_not_yet' })).toBe('unknown');
    // Another connected account's report never moves it.
    expect(await service.applyReported({ ...report, account_id: 'pa_other', subaccount_id: subaccount._id, status: 'active' })).toBe('unknown');
  });

  it('keeps the split target the provider answered and the Pix key given at creation (neither shown); sync and reports refresh the target', async () => {
    const { subaccount } = await service.create(
      scope,
      'key_full',
      request({ person: { name: 'Davi Rocha', document: '390.533.447-05', email: 'davi@exemplo.com.br' } as never, pix_key: { key_type: 'email', key: 'davi@exemplo.com.br' } }),
    );
    expect(subaccount).toMatchObject({ split_target: `wal_${subaccount._id}`, pix_key: { key_type: 'email', key: 'davi@exemplo.com.br' } });
    const { toProtoSubaccount } = await import('./subaccounts.service');
    expect(JSON.stringify(toProtoSubaccount(subaccount))).not.toContain(`wal_${subaccount._id}`);

    // A sync whose answer carries no target keeps the stored one; one that carries another replaces it.
    fake.status = 'active';
    fake.splitTarget = '';
    expect((await service.sync(scope, subaccount._id)).split_target).toBe(`wal_${subaccount._id}`);
    fake.splitTarget = 'wal_new';
    expect((await service.sync(scope, subaccount._id)).split_target).toBe('wal_new');
    const report = { account_id: 'pa_asaas', provider: 'asaas', provider_subaccount_id: subaccount.provider_subaccount_id, status: 'active' as const, status_detail: 'Aprovada.', provider_status: 'X', via: 'webhook' as const };
    expect(await service.applyReported({ ...report, split_target: 'wal_newer' })).toBe('applied');
    expect(await service.applyReported({ ...report, split_target: 'wal_newer' })).toBe('unchanged');
    expect((await service.get(scope, subaccount._id)).split_target).toBe('wal_newer');
  });

  it('resolves a split\'s subaccounts in the order asked; an unknown one (another mode, still being created) is NOT_FOUND naming its position', async () => {
    const made = await Promise.all(
      [
        { name: 'Eva Souza', document: '111.444.777-35', email: 'eva@exemplo.com.br' },
        { name: 'Fábio Melo', document: '390.533.447-05', email: 'fabio@exemplo.com.br' },
      ].map(async (person) => (await service.create(scope, 'key_full', request({ person: person as never }))).subaccount),
    );
    const [first, second] = made as [(typeof made)[number], (typeof made)[number]];
    const resolved = await service.resolveSplits(scope, [second._id, first._id]);
    expect(resolved).toEqual([
      { id: second._id, status: second.status, provider: 'asaas', provider_account_id: 'pa_asaas', split_target: `wal_${second._id}` },
      { id: first._id, status: first.status, provider: 'asaas', provider_account_id: 'pa_asaas', split_target: `wal_${first._id}` },
    ]);
    expect(await service.resolveSplits(scope, [])).toEqual([]);
    await expect(service.resolveSplits(scope, [first._id, 'sub_unknown'])).rejects.toMatchObject({ code: 'not_found', param: 'splits[1].subaccount_id' });
    await expect(service.resolveSplits({ ...scope, mode: 'live' }, [first._id])).rejects.toMatchObject({ code: 'not_found', param: 'splits[0].subaccount_id' });
    await expect(service.resolveSplits({ merchantId: 'acct_other', mode: 'test' }, [first._id])).rejects.toMatchObject({ code: 'not_found', param: 'splits[0].subaccount_id' });
    await model.create({ ...(await model.findById(first._id).lean().exec())!, _id: 'sub_provisioning', idempotency_ref: 'sub_provisioning', provisioning: true });
    await expect(service.resolveSplits(scope, [first._id, second._id, 'sub_provisioning'])).rejects.toMatchObject({ code: 'not_found', param: 'splits[2].subaccount_id' });
  });
});

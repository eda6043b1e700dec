import { common, PROVIDER_ACCOUNTS_CHANGED, providers } from '@orquestra/contracts';
import { connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventually, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerRoutingRuleModel, registerRuleOrderModel } from '../db/routing-rule.model';
import { subscribedLookups, type RoutingLookups } from './routing-lookups';
import { RulesService } from './rules.service';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

/**
 * Two routing replicas, each with its own store and broker connections, lookups cache and
 * subscription (wired by subscribedLookups, as main.ts), on one real store and broker, reading the
 * merchant's accounts over real gRPC from a stand-in for providers: both serve repeated reads from
 * their caches, and a breaker change signalled by providers, or a rule written on either replica,
 * reaches both at once (every replica skips the same accounts, applies the same rules).
 */
describe('routing lookups across replicas (real store and broker)', () => {
  const caller = common.Caller.fromPartial({ merchant_id: `acct_${Date.now().toString(36)}`, mode: common.Mode.MODE_TEST, key_id: 'key_1' });
  const accounts = [providers.ProviderAccount.fromPartial({ id: 'pa_a', merchant_id: caller.merchant_id, provider: 'efi', enabled: true, breaker_state: 'closed' })];
  let listed = 0;
  const server = new GrpcServer(logger);
  const dbs: Connection[] = [];
  const buses: EventBus[] = [];
  const replicas: Array<{ lookups: RoutingLookups; rules: RulesService }> = [];
  let providersSide: EventBus;
  const clients: Array<{ close(): void }> = [];

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('routing_lookups');
    server.addService(providers.ProvidersServiceService, {
      listAccounts: async () => {
        listed += 1;
        return { accounts: accounts.map((account) => ({ ...account })) };
      },
    } as unknown as Handlers<typeof providers.ProvidersServiceService>);
    const port = await server.listen('127.0.0.1:0');
    server.setServing(true);
    providersSide = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await providersSide.start();
    for (let i = 0; i < 2; i += 1) {
      const db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}routing`, logger });
      const bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
      await bus.start();
      const providersClient = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
      clients.push(providersClient);
      const rules = new RulesService(registerRoutingRuleModel(db), registerRuleOrderModel(db), providersClient);
      await ensureIndexes(db);
      const lookups = await subscribedLookups({ bus, providersClient, rules, ttlMs: 60_000 });
      dbs.push(db);
      buses.push(bus);
      replicas.push({ lookups, rules });
    }
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const bus of [...buses, providersSide]) await bus.close();
    for (const db of dbs.slice(1)) await db.close();
    if (dbs[0]) await dropTestDatabase(dbs[0]);
    await server.shutdown(0);
  });

  it('serves accounts from each replica cache and drops them on both at a breaker signal', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const breakerOn = (replica: typeof a) => async () => (await replica.lookups.accounts(caller, 'r')).map((account) => account.breaker_state);
    expect(await breakerOn(a)()).toEqual(['closed']);
    expect(await breakerOn(b)()).toEqual(['closed']);
    await breakerOn(a)();
    await breakerOn(b)();
    expect(listed).toBe(2);

    // providers (any replica) opened the account's breaker: it signals without a merchant.
    accounts[0] = { ...accounts[0]!, breaker_state: 'open' };
    await providersSide.signal(PROVIDER_ACCOUNTS_CHANGED, { merchant_id: '', mode: 'test' }, { account_id: 'pa_a', reason: 'breaker' });
    await eventually(breakerOn(a), ['open'], 5_000);
    await eventually(breakerOn(b), ['open'], 5_000);
  });

  it('shows a rule written on one replica to the other', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const namesOn = (replica: typeof a) => async () => (await replica.lookups.routingRules(caller)).map((rule) => rule.name);
    expect(await namesOn(b)()).toEqual([]);
    await a.rules.create(
      caller,
      {
        name: 'pix to efi',
        conditions: { methods: ['pix'], amount_min: 0, amount_max: 0, metadata: [], customer_has: [] },
        target: { type: 'accounts', accounts: ['pa_a'], weights: [], fallback: true },
      } as never,
      'r',
    );
    expect(await namesOn(a)()).toEqual(['pix to efi']);
    await eventually(namesOn(b), ['pix to efi'], 5_000);
  });
});

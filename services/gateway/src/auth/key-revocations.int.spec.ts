import { accounts, API_KEYS_CHANGED, common } from '@orquestra/contracts';
import { AppError, EventBus } from '@orquestra/platform';
import { ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import pino from 'pino';
import { TEST_KEY } from '../testing/fixtures';
import { ApiKeyResolver } from './api-key.resolver';
import { startBusInBackground, subscribeKeyRevocations, type KeyRevocations } from './key-revocations';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

/**
 * Two gateway replicas, each with its own bus connection, revocation subscription and key cache,
 * and accounts publishing `internal.api_keys.changed` as its main.ts does after a revocation: on
 * the real broker, both replicas refuse the key at once, without waiting for the cache's TTL.
 */
describe('revoked API keys across gateway replicas (real broker)', () => {
  let exchange: string;
  let amqpUrl: string;
  let accountsBus: EventBus;
  let revoked = false;
  const authenticateKey = jest.fn(async () => {
    if (revoked) throw new AppError('unauthenticated');
    return { merchant_id: 'acct_1', key_id: 'key_1', mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_FULL };
  });
  const replicas: Array<{ bus: EventBus; resolver: ApiKeyResolver; signals: KeyRevocations }> = [];

  async function replica(): Promise<(typeof replicas)[number]> {
    const bus = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    const signals = subscribeKeyRevocations(bus, logger);
    startBusInBackground(bus, logger);
    const resolver = new ApiKeyResolver({ accounts: { authenticateKey }, logger }, { ttlMs: 600_000, maxEntries: 100, trusted: () => signals.live });
    signals.listen((keyId) => resolver.dropKey(keyId), () => resolver.clear());
    const deadline = Date.now() + 10_000;
    while (!signals.live) {
      if (Date.now() > deadline) throw new Error('subscription never bound');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const made = { bus, resolver, signals };
    replicas.push(made);
    return made;
  }

  beforeAll(async () => {
    amqpUrl = (await ensureTestInfra()).amqpUrl;
    exchange = `${uniqueDbPrefix('keysignals')}events`;
    accountsBus = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await accountsBus.start();
  });
  afterAll(async () => {
    await accountsBus.close();
    for (const { bus } of replicas) await bus.close();
  });

  it('drops the key on every replica when accounts signals its revocation', async () => {
    const [a, b] = [await replica(), await replica()];
    await a.resolver.resolve(TEST_KEY, 'r1');
    await b.resolver.resolve(TEST_KEY, 'r2');
    await a.resolver.resolve(TEST_KEY, 'r3');
    expect(authenticateKey).toHaveBeenCalledTimes(2);
    revoked = true;
    await accountsBus.signal(API_KEYS_CHANGED, { merchant_id: 'acct_1', mode: 'test' }, { key_id: 'key_1', reason: 'revoked' });
    for (const { resolver } of [a, b]) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const refused = await resolver.resolve(TEST_KEY, 'r').then(() => false, (error: AppError) => error.code === 'unauthenticated');
        if (refused) break;
        if (Date.now() > deadline) throw new Error('the revoked key still resolves');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  });

  it('reads every key through while the subscription is down', async () => {
    revoked = false;
    const c = await replica();
    await c.bus.close();
    expect(c.signals.live).toBe(false);
    const before = authenticateKey.mock.calls.length;
    await c.resolver.resolve(TEST_KEY, 'x');
    await c.resolver.resolve(TEST_KEY, 'y');
    expect(authenticateKey.mock.calls.length - before).toBe(2);
  });
});

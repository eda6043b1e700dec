import { randomBytes } from 'node:crypto';
import { connectDatabase, ensureIndexes, EventBus } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventually, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { ProviderError } from '../adapters/provider-adapter';
import { registerBreakerStateModel } from '../db/breaker-state.model';
import { BreakerRegistry, type BreakerState } from './breaker-registry';
import { shareBreakers, type SharedBreakers } from './shared-breakers';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });
const RESET_MS = 1_500;

/**
 * Providers replicas, each with its own store connection, broker connection and breakers, wired as
 * main.ts wires them, on one real store and broker: a breaker one replica opens is open on the
 * others within the broker's delay (no call of theirs reaches the provider), a replica that starts
 * later or missed the signal finds it in the store, and the first successful recovery trial closes
 * it everywhere.
 */
describe('circuit breakers shared across providers replicas (real store and broker)', () => {
  interface Replica {
    name: string;
    db: Connection;
    bus: EventBus;
    breakers: BreakerRegistry;
    shared: SharedBreakers;
    changes: Array<{ accountId: string; state: BreakerState }>;
    provided: number;
  }
  const replicas: Replica[] = [];
  let prefix = '';
  let mongoUrl = '';
  let amqpUrl = '';
  const account = `pacc_${randomBytes(4).toString('hex')}`;

  async function replica(name: string, options: { subscribe?: boolean; syncMs?: number } = {}): Promise<Replica> {
    const db = await connectDatabase({ url: mongoUrl, dbName: `${prefix}providers`, logger });
    const bus = new EventBus({ url: amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    const model = registerBreakerStateModel(db);
    await ensureIndexes(db);
    const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 5, resetTimeout: RESET_MS, consecutiveFailures: 3 }, logger);
    const changes: Replica['changes'] = [];
    // A replica whose broker connection is down: its subscription is never bound, the store still speaks.
    if (options.subscribe !== false) await bus.start();
    const shared = await shareBreakers({
      bus,
      model,
      breakers,
      logger,
      resetTimeoutMs: RESET_MS,
      syncMs: options.syncMs ?? 60_000,
      replica: name,
      onChange: (accountId, state) => changes.push({ accountId, state }),
    });
    const made: Replica = { name, db, bus, breakers, shared, changes, provided: 0 };
    // The recovery trial main.ts runs (ProviderAccountService.probe): one call through the breaker.
    breakers.onHalfOpen = (accountId) => void breakers.fire(accountId, async () => made.provided++, 'efi').catch(() => undefined);
    replicas.push(made);
    return made;
  }

  /** One call of a replica to the provider; `fails` makes the provider answer 503. */
  async function call(replica: Replica, fails: boolean): Promise<string> {
    try {
      await replica.breakers.fire(
        account,
        async () => {
          replica.provided += 1;
          if (fails) throw new ProviderError('not_created', 'provider_unavailable', 'HTTP 503');
          return 'ok';
        },
        'efi',
      );
      return 'ok';
    } catch (error) {
      return (error as Error).message.startsWith('circuit open') ? 'circuit_open' : 'provider_failed';
    }
  }

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    mongoUrl = infra.mongoUrl;
    amqpUrl = infra.amqpUrl;
    prefix = uniqueDbPrefix('shared_breakers');
  });

  afterAll(async () => {
    for (const { shared, breakers } of replicas) {
      shared.stop();
      breakers.shutdown();
    }
    for (const { bus } of replicas) await bus.close().catch(() => undefined);
    for (const { db } of replicas.slice(1)) await db.close();
    if (replicas[0]) await dropTestDatabase(replicas[0].db);
  });

  it('opens the breaker on every replica when one opens it, and closes it everywhere after one successful trial', async () => {
    const a = await replica('providers-a');
    const b = await replica('providers-b');
    expect(await call(b, false)).toBe('ok');

    // Three failures in a row at replica a open its breaker.
    for (let i = 0; i < 3; i += 1) expect(await call(a, true)).toBe('provider_failed');
    expect(a.breakers.state(account)).toBe('open');
    const openedAt = Date.now();
    await eventually(async () => b.breakers.state(account), 'open', 2_000);
    const seenWithinMs = Date.now() - openedAt;
    expect(seenWithinMs).toBeLessThan(2_000);
    // b refuses at once: its provider is not called (routing, reading b, skips the account too).
    const before = b.provided;
    expect(await call(b, false)).toBe('circuit_open');
    expect(b.provided).toBe(before);
    expect(b.changes).toContainEqual({ accountId: account, state: 'open' });

    // After the reset timeout each replica runs its own trial; the first success closes it everywhere.
    await eventually(async () => [a.breakers.state(account), b.breakers.state(account)], ['closed', 'closed'], RESET_MS + 3_000);
    expect(await call(b, false)).toBe('ok');
    expect(await call(a, false)).toBe('ok');
  });

  it('gives a replica that starts later, or that missed the signal, the open breaker from the store', async () => {
    // Without a broker connection (no signal can reach it), running before the transition.
    const deaf = await replica('providers-deaf', { subscribe: false, syncMs: 300 });
    expect(deaf.breakers.state(account)).toBe('closed');
    const a = replicas.find((r) => r.name === 'providers-a') ?? (await replica('providers-a'));
    for (let i = 0; i < 3; i += 1) await call(a, true);
    expect(a.breakers.state(account)).toBe('open');

    // Started after the transition: it reads the store at start.
    const late = await replica('providers-late');
    expect(late.breakers.state(account)).toBe('open');
    expect(await call(late, false)).toBe('circuit_open');

    // The deaf replica's periodic store read brings it.
    await eventually(async () => deaf.breakers.state(account), 'open', 3_000);
  });
});

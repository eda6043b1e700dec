import { randomBytes } from 'node:crypto';
import { WEBHOOK_ENDPOINTS_CHANGED } from '@orquestra/contracts';
import { connectDatabase, ensureIndexes, EventBus, InvalidatingCache, OutboxRelay, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventually, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerWebhookEndpointModel, type WebhookEndpointDoc } from './webhook-endpoint.model';
import { WebhookEndpointStore } from './webhook-endpoint.store';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

/**
 * Two notifications replicas, each with its own connection, bus subscription and cache of the
 * merchants' enabled endpoints, on one real store and broker: what one replica changes, the
 * other's fan-out sees at once (by the signal), and reads are served from the cache meanwhile.
 */
describe('the enabled-endpoints cache across replicas (real store and broker)', () => {
  const replicas: Array<{ db: Connection; bus: EventBus; store: WebhookEndpointStore; finds: string[]; signalsSeen: { count: number } }> = [];
  const merchant = `acct_${randomBytes(4).toString('hex')}`;
  const scope = { merchant_id: merchant, mode: 'test' as const };

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('endpoint_cache');
    const box = SecretBox.fromConfig(`t1:${randomBytes(32).toString('base64')}`);
    for (let i = 0; i < 2; i++) {
      const finds: string[] = [];
      const db = await connectDatabase({
        url: infra.mongoUrl,
        dbName: `${prefix}notifications`,
        logger,
        onCommand: (command, collection) => {
          if (command === 'find' && collection === 'webhook_endpoints') finds.push(command);
        },
      });
      const bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
      await bus.start();
      const store = new WebhookEndpointStore(registerWebhookEndpointModel(db), box, new OutboxRelay({ bus, logger }), 86_400_000);
      await ensureIndexes(db);
      let signals: { live: boolean } = { live: false };
      const cache = new InvalidatingCache<WebhookEndpointDoc[]>({ ttlMs: 60_000, trusted: () => signals.live });
      store.cacheEnabled(cache, (changed) => void bus.signal(WEBHOOK_ENDPOINTS_CHANGED, changed, {}));
      const signalsSeen = { count: 0 };
      signals = await bus.subscribe(
        [WEBHOOK_ENDPOINTS_CHANGED],
        (event) => {
          signalsSeen.count++;
          return store.endpointsChanged({ merchant_id: event.merchant_id, mode: event.mode });
        },
        () => cache.clear(),
      );
      replicas.push({ db, bus, store, finds, signalsSeen });
    }
  });

  afterAll(async () => {
    for (const { bus } of replicas) await bus.close();
    for (const { db } of replicas.slice(1)) await db.close();
    if (replicas[0]) await dropTestDatabase(replicas[0].db);
  });

  it('serves repeated reads from the cache and sees every change made on either replica', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const idsOn = (replica: typeof a) => async () => (await replica.store.enabledFor(merchant, 'test')).map((doc) => doc._id).sort();

    const first = await a.store.create(scope, { url: 'https://example.com/a', events: ['payment.*'], only_source: null, description: '' });
    await eventually(idsOn(b), [first.doc._id]);
    // The create's signal may reach B after that read and clear what it cached: count from once it has.
    await eventually(async () => b.signalsSeen.count >= 1, true);
    await idsOn(b)();
    const before = b.finds.length;
    for (let i = 0; i < 10; i++) expect(await idsOn(b)()).toEqual([first.doc._id]);
    expect(b.finds.length).toBe(before);

    // Disabled on B: A stops offering it; a second endpoint created on B appears on A.
    await b.store.update(scope, first.doc._id, { enabled: false });
    await eventually(idsOn(a), []);
    const second = await b.store.create(scope, { url: 'https://example.com/b', events: ['*'], only_source: null, description: '' });
    await eventually(idsOn(a), [second.doc._id]);

    // A rotation on A reaches B's cached document (the fan-out hands it to the first attempt, which signs with it).
    const rotated = await a.store.rotateSecret(scope, second.doc._id);
    await eventually(async () => (await b.store.enabledFor(merchant, 'test')).flatMap((doc) => doc.secrets.map((secret) => secret.id)), rotated.doc.secrets.map((secret) => secret.id));

    await a.store.delete(scope, second.doc._id);
    await eventually(idsOn(b), []);
  });
});

import { randomBytes } from 'node:crypto';
import { connectDatabase, ensureIndexes, EventBus, OutboxRelay, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventually, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { createAdTools } from '../tools/registry';
import { envelope, paymentObject } from './tracking-harness';
import { createTrackingModule, type TrackingModule } from './tracking.module';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

/**
 * Two tracking replicas, each with its own connection, bus subscription and cache of the
 * merchants' enabled integrations, on one real store and broker: an integration created, changed
 * or deleted on one is seen by the other at once; a sale of a merchant without integrations costs
 * no read of the sale back.
 */
describe('the enabled-integrations cache across replicas (real store and broker)', () => {
  const replicas: Array<{ db: Connection; bus: EventBus; module: TrackingModule; commands: string[] }> = [];
  const merchant = `acct_${randomBytes(4).toString('hex')}`;
  const scope = { merchantId: merchant, mode: 'live' as const };

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('integration_cache');
    const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
    for (let i = 0; i < 2; i++) {
      const commands: string[] = [];
      const db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}tracking`, logger, onCommand: (command, collection) => commands.push(`${command} ${collection}`) });
      const bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
      await bus.start();
      const module = createTrackingModule({
        db,
        outbox: new OutboxRelay({ bus, logger }),
        logger,
        box,
        tools: createAdTools({ utmifyBaseUrl: 'http://127.0.0.1:9', metaGraphBaseUrl: 'http://127.0.0.1:9', metaGraphVersion: 'v25.0', tiktokBaseUrl: 'http://127.0.0.1:9' }),
        toolTimeoutMs: 1_000,
        retryScheduleMs: [60_000],
        pollIntervalMs: 60_000,
        integrationCacheTtlMs: 60_000,
      });
      await ensureIndexes(db);
      await module.start(bus);
      replicas.push({ db, bus, module, commands });
    }
  });

  afterAll(async () => {
    for (const { module } of replicas) await module.worker.stop();
    for (const { bus } of replicas) await bus.close();
    for (const { db } of replicas.slice(1)) await db.close();
    if (replicas[0]) await dropTestDatabase(replicas[0].db);
  });

  it('sees on one replica what the other changed, and reads no sale back for a merchant without integrations', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const enabledOn = (replica: typeof a) => async () => (await replica.module.integrations.enabledFor(merchant, 'live')).map((doc) => doc._id);

    // No integration: a sale is stored, and neither read back nor planned for deliveries.
    expect(await enabledOn(b)()).toEqual([]);
    b.commands.length = 0;
    await b.module.sales.applyEvent(envelope('payment.succeeded', merchant, paymentObject({ mode: 'live', id: 'pay_cache_1', status: 'succeeded' })));
    expect(b.commands).toEqual(['insert sales']);

    const created = await a.module.integrations.create(scope, { caller: undefined, kind: 'utmify', name: 'u', sales: 'live', options: {}, credentials: { api_token: 'tok_1234567890' } });
    await eventually(enabledOn(b), [created._id]);
    const reads = b.commands.length;
    for (let i = 0; i < 5; i++) expect(await enabledOn(b)()).toEqual([created._id]);
    expect(b.commands.length).toBe(reads);

    await b.module.integrations.update(scope, { caller: undefined, integration_id: created._id, name: undefined, enabled: false, sales: undefined, options: {}, credentials: {} });
    await eventually(enabledOn(a), []);
    await b.module.integrations.update(scope, { caller: undefined, integration_id: created._id, name: undefined, enabled: true, sales: undefined, options: {}, credentials: {} });
    await eventually(enabledOn(a), [created._id]);
    await a.module.integrations.delete(scope, created._id);
    await eventually(enabledOn(b), []);
  });
});

import { randomBytes } from 'node:crypto';
import { createUtmifyEmulator, type UtmifyEmulator } from '@orquestra/emulators';
import { connectDatabase, ensureIndexes, EventBus, OutboxRelay, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventuallyExpect, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerDeliveryModel } from '../db/delivery.model';
import { createAdTools } from '../tools/registry';
import { envelope, newPaymentId, paymentObject } from '../use-cases/tracking-harness';
import { createTrackingModule, type TrackingModule } from '../use-cases/tracking.module';

jest.setTimeout(90_000);
const logger = pino({ level: 'silent' });
const UTMIFY_TOKEN = 'utmify-token-0123456789';

/**
 * Two tracking replicas wired as main.ts wires them (each its own store and broker connections,
 * sales consumer, outbox relay and delivery worker polling every 50 ms), on one real store and
 * broker, delivering over real HTTP to the Utmify emulator: sale events shared by the competing
 * consumers of one queue, deliveries run at once by the replica that planned them and polled as
 * due work by both, and still every order reaches the tool exactly once (the claim of due work).
 */
describe('ad-tool deliveries with two replicas (real store, broker and HTTP)', () => {
  const replicas: Array<{ db: Connection; bus: EventBus; module: TrackingModule; outbox: OutboxRelay; writes: string[] }> = [];
  let utmify: UtmifyEmulator;
  let publisher: EventBus;
  const merchant = `acct_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    utmify = createUtmifyEmulator({ tokens: [UTMIFY_TOKEN] });
    const { apiPort } = await utmify.start();
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('tracking_replicas');
    const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
    for (let i = 0; i < 2; i++) {
      const writes: string[] = [];
      const db = await connectDatabase({
        url: infra.mongoUrl,
        dbName: `${prefix}tracking`,
        logger,
        onCommand: (command, collection) => {
          if (command !== 'find' && command !== 'aggregate') writes.push(`${command} ${collection}`);
        },
      });
      const bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
      await bus.start();
      const outbox = new OutboxRelay({ bus, logger, sweepIntervalMs: 200, sweepMinAgeMs: 200 });
      const module = createTrackingModule({
        db,
        outbox,
        logger,
        box,
        tools: createAdTools({ utmifyBaseUrl: `http://127.0.0.1:${apiPort}`, metaGraphBaseUrl: 'http://127.0.0.1:9', metaGraphVersion: 'v25.0', tiktokBaseUrl: 'http://127.0.0.1:9' }),
        toolTimeoutMs: 3_000,
        retryScheduleMs: [400, 800],
        pollIntervalMs: 50,
        integrationCacheTtlMs: 60_000,
      });
      await ensureIndexes(db);
      await module.start(bus);
      outbox.start();
      replicas.push({ db, bus, module, outbox, writes });
    }
    publisher = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await publisher.start();
  });

  afterAll(async () => {
    for (const { module, outbox } of replicas) {
      await module.worker.stop();
      outbox.stop();
    }
    for (const { bus } of [...replicas, { bus: publisher }]) await bus?.close();
    for (const { db } of replicas.slice(1)) await db.close();
    if (replicas[0]) await dropTestDatabase(replicas[0].db);
    await utmify?.stop();
  });

  it('sends every order once while both replicas consume the sales and run the deliveries', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const integration = await a.module.integrations.create(
      { merchantId: merchant, mode: 'live' },
      { caller: undefined, kind: 'utmify', name: 'u', sales: 'live', options: {}, credentials: { api_token: UTMIFY_TOKEN } },
    );
    // Both replicas know the integration (the signal) before the sales arrive.
    await eventuallyExpect(async () => expect((await b.module.integrations.enabledFor(merchant, 'live')).map((doc) => doc._id)).toEqual([integration._id]));

    const ids = Array.from({ length: 20 }, () => newPaymentId());
    await Promise.all(ids.map((id) => publisher.publish(envelope('payment.succeeded', merchant, paymentObject({ mode: 'live', id, status: 'succeeded' })))));

    await eventuallyExpect(() => {
      for (const id of ids) expect(utmify.state.received.list({ order_id: id }).length).toBeGreaterThanOrEqual(1);
    }, 30_000);
    // Time for a second send, had two replicas claimed the same delivery.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(ids.map((id) => utmify.state.received.list({ order_id: id }).length)).toEqual(ids.map(() => 1));
    const deliveries = await registerDeliveryModel(a.db).find({ integration_id: integration._id }).lean();
    expect(deliveries).toHaveLength(20);
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual(ids.map(() => ['delivered', 1]));
    // Both replicas took part: each consumed some of the sales from the shared queue.
    for (const replica of [a, b]) expect(replica.writes.filter((write) => write === 'insert sales').length).toBeGreaterThan(0);
  });
});

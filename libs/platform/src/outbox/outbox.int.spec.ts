import { MongoClient, type Collection, type Document } from 'mongodb';
import pino from 'pino';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, testEnvelope, uniqueDbPrefix } from '../testing';
import { EventBus, type EventEnvelope } from '../bus';
import { ServiceMetrics } from '../metrics';
import { OutboxRelay, withOutbox } from './outbox';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

const event = testEnvelope;

describe('OutboxRelay against the real store and broker', () => {
  let mongo: MongoClient;
  let collection: Collection<Document>;
  let bus: EventBus;
  let exchange: string;
  let mongoUrl: string;
  const received: EventEnvelope[] = [];

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('outbox');
    mongoUrl = infra.mongoUrl;
    mongo = await MongoClient.connect(mongoUrl);
    collection = mongo.db(`${prefix}db`).collection('things');
    exchange = `${prefix}events`;
    bus = new EventBus({ url: infra.amqpUrl, exchange, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['thing.*'] }, async (e) => {
      received.push(e);
    });
  });

  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(mongo.db(collection.dbName));
    await mongo.close();
  });

  const waitForEvents = async (ids: string[]) => {
    const deadline = Date.now() + 10_000;
    while (!ids.every((id) => received.some((e) => e.id === id))) {
      if (Date.now() > deadline) throw new Error(`events not received: ${ids.join(',')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('publishes events written with the state change and empties the outbox', async () => {
    const relay = new OutboxRelay({ bus, logger });
    await relay.watch(collection);
    const e1 = event('thing.created', { id: 'thing_1' });
    await collection.insertOne({ _id: 'thing_1' as never, status: 'new', outbox: [], outbox_since: null });
    await collection.updateOne({ _id: 'thing_1' as never }, withOutbox({ $set: { status: 'done' } }, [e1]));

    expect(await relay.flush(collection, 'thing_1')).toBe(1);
    await waitForEvents([e1.id]);
    const doc = await collection.findOne({ _id: 'thing_1' as never });
    expect(doc?.status).toBe('done');
    expect(doc?.outbox).toEqual([]);
    expect(doc?.outbox_since).toBeNull();
    expect(received.find((e) => e.id === e1.id)?.data.object).toEqual({ id: 'thing_1' });
  });

  it('publishes a document\'s events with two store commands: the claim and one write that empties the outbox', async () => {
    const counted = await MongoClient.connect(mongoUrl, { monitorCommands: true });
    try {
      const things = counted.db(collection.dbName).collection('things');
      const relay = new OutboxRelay({ bus, logger });
      const events = [event('thing.created', { id: 'thing_c' }), event('thing.updated', { id: 'thing_c' })];
      await things.insertOne({ _id: 'thing_c' as never, status: 'new', outbox: events, outbox_since: new Date() });
      const commands: string[] = [];
      counted.on('commandStarted', (started) => commands.push(started.commandName));
      expect(await relay.flush(things, 'thing_c')).toBe(2);
      expect(commands).toEqual(['findAndModify', 'update']);
      await waitForEvents(events.map((e) => e.id));
      const doc = await things.findOne({ _id: 'thing_c' as never });
      expect(doc).toMatchObject({ outbox: [], outbox_since: null, outbox_lease: null });
    } finally {
      await counted.close();
    }
  });

  it('publishes the events a writer stored already leased with one store command, and the sweeper leaves them alone meanwhile', async () => {
    const counted = await MongoClient.connect(mongoUrl, { monitorCommands: true });
    try {
      const things = counted.db(collection.dbName).collection('things');
      const relay = new OutboxRelay({ bus, logger, sweepMinAgeMs: 0 });
      await relay.watch(things);
      const events = [event('thing.created', { id: 'thing_w' })];
      await things.insertOne({ _id: 'thing_w' as never, status: 'new', outbox: events, outbox_since: new Date(Date.now() - 60_000), outbox_lease: relay.leaseEnd() });
      // Old enough for the sweeper, but leased: it publishes nothing of it.
      expect(await relay.sweep()).toBe(0);
      const commands: string[] = [];
      counted.on('commandStarted', (started) => commands.push(started.commandName));
      expect(await relay.publishWritten(things, 'thing_w', events)).toBe(1);
      expect(commands).toEqual(['update']);
      await waitForEvents(events.map((e) => e.id));
      expect(await things.findOne({ _id: 'thing_w' as never })).toMatchObject({ outbox: [], outbox_since: null, outbox_lease: null });
    } finally {
      await counted.close();
    }
  });

  it('leaves events in place while the broker is unreachable and the sweeper publishes them later', async () => {
    const infra = await ensureTestInfra();
    const downBus = new EventBus({ url: 'amqp://guest:guest@127.0.0.1:1', exchange, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    const downRelay = new OutboxRelay({ bus: downBus, logger });
    await downRelay.watch(collection);
    const e2 = event('thing.updated', { id: 'thing_2' });
    await collection.insertOne({ _id: 'thing_2' as never, outbox: [], outbox_since: null });
    await collection.updateOne({ _id: 'thing_2' as never }, withOutbox({ $set: { n: 1 } }, [e2]));

    expect(await downRelay.flush(collection, 'thing_2')).toBe(0);
    const kept = await collection.findOne({ _id: 'thing_2' as never });
    expect(kept?.outbox).toHaveLength(1);
    // The backlog is visible in the metrics while it waits.
    const metrics = new ServiceMetrics('outbox-test');
    metrics.watchOutbox(downRelay);
    await new Promise((r) => setTimeout(r, 20));
    const text = (await metrics.text()).body;
    expect(Number(/^orquestra_outbox_pending_documents\{[^}]*\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^orquestra_outbox_oldest_event_age_seconds\{[^}]*\} ([\d.e-]+)$/m.exec(text)?.[1])).toBeGreaterThan(0);

    const relay = new OutboxRelay({ bus, logger, sweepMinAgeMs: 0 });
    await relay.watch(collection);
    expect(await relay.sweep()).toBeGreaterThanOrEqual(1);
    await waitForEvents([e2.id]);
    expect((await collection.findOne({ _id: 'thing_2' as never }))?.outbox).toEqual([]);
    expect(infra.amqpUrl).toBeTruthy();
  });

  it('publishes every event exactly from concurrent writers and relays, without a lock, and empties the outbox', async () => {
    const relays = [new OutboxRelay({ bus, logger }), new OutboxRelay({ bus, logger })];
    await collection.insertOne({ _id: 'thing_3' as never, n: 0, outbox: [], outbox_since: null });
    const events = Array.from({ length: 40 }, (_, i) => event('thing.changed', { id: 'thing_3', i }));
    // Writers push events while two relays (two replicas) flush the same document.
    await Promise.all(
      events.map(async (e, i) => {
        await collection.updateOne({ _id: 'thing_3' as never }, withOutbox({ $inc: { n: 1 } }, [e]));
        await relays[i % 2]!.flush(collection, 'thing_3');
      }),
    );
    await relays[0]!.flush(collection, 'thing_3');
    await waitForEvents(events.map((e) => e.id));
    const doc = await collection.findOne({ _id: 'thing_3' as never });
    expect(doc?.n).toBe(40);
    expect(doc?.outbox).toEqual([]);
    expect(doc?.outbox_since).toBeNull();
    // Leases make duplicates rare; none of the 40 is missing, and none is published twice here.
    const counts = events.map((e) => received.filter((r) => r.id === e.id).length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(1);
  });

  it('takes over the outbox of a relay that died holding its lease once the lease has passed', async () => {
    const e = event('thing.orphaned', { id: 'thing_4' });
    await collection.insertOne({ _id: 'thing_4' as never, outbox: [], outbox_since: null });
    await collection.updateOne({ _id: 'thing_4' as never }, withOutbox({ $set: { outbox_lease: new Date(Date.now() + 1_000) } }, [e]));
    const relay = new OutboxRelay({ bus, logger });
    expect(await relay.flush(collection, 'thing_4')).toBe(0);
    await new Promise((r) => setTimeout(r, 1_050));
    expect(await relay.flush(collection, 'thing_4')).toBe(1);
    await waitForEvents([e.id]);
    expect((await collection.findOne({ _id: 'thing_4' as never }))?.outbox).toEqual([]);
  });
});

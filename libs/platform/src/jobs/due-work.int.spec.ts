import { MongoClient, type Collection, type Document } from 'mongodb';
import pino from 'pino';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '../testing';
import { ServiceMetrics } from '../metrics';
import { DueWorker } from './due-work';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

describe('DueWorker against the real store', () => {
  let mongo: MongoClient;
  let collection: Collection<Document>;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    mongo = await MongoClient.connect(infra.mongoUrl);
    collection = mongo.db(`${uniqueDbPrefix('due')}db`).collection('jobs');
    await DueWorker.ensureIndex(collection);
  });
  afterAll(async () => {
    await dropTestDatabase(mongo.db(collection.dbName));
    await mongo.close();
  });

  it('handles every due document exactly once across competing replicas, and nothing not yet due', async () => {
    const past = new Date(Date.now() - 1_000);
    const future = new Date(Date.now() + 3_600_000);
    const docs = Array.from({ length: 30 }, (_, i) => ({ _id: `job_${i}`, due_at: past, done: false }));
    await collection.insertMany([...docs, { _id: 'job_future', due_at: future, done: false }] as never);

    const handled: string[] = [];
    const handle = async (doc: Document) => {
      handled.push(String(doc._id));
      await collection.updateOne({ _id: doc._id }, { $set: { done: true, due_at: null } });
    };
    const replicas = [1, 2, 3].map(() => new DueWorker({ name: 'test', collection, filter: { _id: { $in: Array.from({ length: 30 }, (_, i) => `job_${i}`) } as never }, handle, logger, concurrency: 3 }));
    await Promise.all(replicas.map((r) => r.tick()));

    expect(handled.sort()).toEqual(docs.map((d) => d._id).sort());
    expect(new Set(handled).size).toBe(handled.length);
    expect(await collection.countDocuments({ done: true })).toBe(30);
    expect((await collection.findOne({ _id: 'job_future' as never }))?.done).toBe(false);
  });

  it('retries a failed handler only after its lease ends', async () => {
    await collection.insertOne({ _id: 'job_flaky' as never, due_at: new Date(Date.now() - 1) });
    let calls = 0;
    const worker = new DueWorker({
      name: 'flaky',
      collection,
      filter: { _id: 'job_flaky' as never },
      logger,
      // Long enough that the second tick surely falls inside it on a loaded machine.
      leaseMs: 1_000,
      handle: async (doc) => {
        calls += 1;
        if (calls === 1) throw new Error('first try fails');
        await collection.updateOne({ _id: doc._id }, { $set: { due_at: null } });
      },
    });
    await worker.tick();
    expect(calls).toBe(1);
    await worker.tick();
    expect(calls).toBe(1); // still leased: nobody takes it
    await new Promise((r) => setTimeout(r, 1_050));
    await worker.tick();
    expect(calls).toBe(2);
    const doc = await collection.findOne({ _id: 'job_flaky' as never });
    expect(doc?.due_at).toBeNull();
    await worker.tick();
    expect(calls).toBe(2);
  });

  it('runs another pass right after the current one when kicked during it (no wait for the poll)', async () => {
    const handled: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const worker = new DueWorker({
      name: 'kick',
      collection,
      filter: { kick: true },
      logger,
      pollIntervalMs: 3_600_000,
      handle: async (doc) => {
        handled.push(String(doc._id));
        if (doc._id === 'kick_1') await gate;
        await collection.updateOne({ _id: doc._id }, { $set: { due_at: null } });
      },
    });
    await collection.insertOne({ _id: 'kick_1' as never, kick: true, due_at: new Date(Date.now() - 1) });
    const first = worker.tick();
    while (handled.length === 0) await new Promise((r) => setTimeout(r, 10));
    // Work that became due while the first pass runs, then a kick: handled without any poll.
    await collection.insertOne({ _id: 'kick_2' as never, kick: true, due_at: new Date(Date.now() - 1) });
    worker.kick();
    release();
    await first;
    for (const deadline = Date.now() + 15_000; !handled.includes('kick_2') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    expect(handled).toEqual(['kick_1', 'kick_2']);
  });

  it('reports due-work lag and outcomes per worker in the metrics', async () => {
    const metrics = new ServiceMetrics('due-test');
    metrics.watchDueWork();
    await collection.insertOne({ _id: 'lag_1' as never, due_at: new Date(Date.now() - 5_000) });
    let fail = true;
    const worker = new DueWorker({
      name: 'lagging',
      collection,
      filter: { _id: 'lag_1' as never },
      logger,
      leaseMs: 50,
      pollIntervalMs: 3_600_000,
      handle: async (doc) => {
        if (fail) throw new Error('not yet');
        await collection.updateOne({ _id: doc._id }, { $set: { due_at: null } });
      },
    });
    worker.start();
    try {
      const value = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1]);
      let text = (await metrics.text()).body;
      expect(value(text, /^orquestra_due_work_lag_seconds\{[^}]*worker="lagging"[^}]*\} ([\d.]+)$/m)).toBeGreaterThanOrEqual(5);
      await worker.tick();
      text = (await metrics.text()).body;
      expect(value(text, /^orquestra_due_work_items_total\{[^}]*worker="lagging",outcome="failed"[^}]*\} (\d+)$/m)).toBe(1);
      fail = false;
      await new Promise((r) => setTimeout(r, 80));
      expect(await worker.tick()).toBe(1);
      text = (await metrics.text()).body;
      expect(value(text, /^orquestra_due_work_lag_seconds\{[^}]*worker="lagging"[^}]*\} ([\d.]+)$/m)).toBe(0);
      expect(value(text, /^orquestra_due_work_items_total\{[^}]*worker="lagging",outcome="done"[^}]*\} (\d+)$/m)).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(DueWorker.started.size).toBe(0);
  });

  it('runNow works a document at once, and a pass running at the same moment never works it twice', async () => {
    await collection.insertOne({ _id: 'now_1' as never, due_at: new Date(Date.now() - 1) });
    const handled: string[] = [];
    const make = () =>
      new DueWorker({
        name: 'now',
        collection,
        filter: { _id: 'now_1' as never },
        logger,
        pollIntervalMs: 3_600_000,
        handle: async (doc) => {
          handled.push(String(doc._id));
          await new Promise((r) => setTimeout(r, 50));
          await collection.updateOne({ _id: doc._id }, { $set: { due_at: null } });
        },
      });
    const creator = make();
    const replica = make();
    const doc = (await collection.findOne({ _id: 'now_1' as never }))!;
    const [now, pass] = await Promise.all([creator.runNow(doc), replica.tick()]);
    expect(handled).toEqual(['now_1']);
    expect(Number(now) + pass).toBe(1);
    // Done: neither runs it again.
    expect(await creator.runNow(doc)).toBe(false);
    expect(await replica.tick()).toBe(0);
  });

  it('runs work found in the future at its due time, and work announced by kickAt, without another scan', async () => {
    const handled: Array<{ id: string; late: number }> = [];
    const worker = new DueWorker({
      name: 'timed',
      collection,
      filter: { timed: true },
      logger,
      // No poll within the test: only the timers set by the first scan and by kickAt can run passes.
      pollIntervalMs: 3_600_000,
      handle: async (doc) => {
        handled.push({ id: String(doc._id), late: Date.now() - Number(doc.wanted_at) });
        await collection.updateOne({ _id: doc._id }, { $set: { due_at: null } });
      },
    });
    const soon = Date.now() + 400;
    await collection.insertOne({ _id: 'timed_scan' as never, timed: true, due_at: new Date(soon), wanted_at: soon });
    worker.start();
    try {
      await worker.tick(); // the scan that sees timed_scan 400 ms ahead
      const later = Date.now() + 600;
      await collection.insertOne({ _id: 'timed_kick' as never, timed: true, due_at: new Date(later), wanted_at: later });
      worker.kickAt(new Date(later));
      for (const deadline = Date.now() + 15_000; handled.length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
      expect(handled.map((h) => h.id)).toEqual(['timed_scan', 'timed_kick']);
      // Never early; late only by the timer and one pass (bounded loosely: a loaded CI machine
      // delays timers and store reads by hundreds of ms, and the next poll is an hour away).
      for (const { late } of handled) {
        expect(late).toBeGreaterThanOrEqual(0);
        expect(late).toBeLessThan(1_000);
      }
    } finally {
      await worker.stop();
    }
  });
});

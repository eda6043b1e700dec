import { MongoClient, type Collection, type Document } from 'mongodb';
import { ensureTestInfra, uniqueDbPrefix } from '../testing';
import { LockManager } from './lock-manager';

jest.setTimeout(60_000);

describe('LockManager against the real store', () => {
  let clients: MongoClient[];
  let locksOf: (i: number) => LockManager;
  let data: Collection<Document>;
  let dbName: string;

  beforeAll(async () => {
    const { mongoUrl } = await ensureTestInfra();
    dbName = `${uniqueDbPrefix('locks')}db`;
    // Several connection pools stand in for several replicas.
    clients = await Promise.all([1, 2, 3].map(() => MongoClient.connect(mongoUrl)));
    const managers = clients.map((c) => new LockManager(c.db(dbName).collection('locks'), { leaseMs: 5_000, waitMs: 20_000 }));
    locksOf = (i) => managers[i % managers.length]!;
    data = clients[0]!.db(dbName).collection('counters');
  });
  afterAll(async () => {
    await clients[0]!.db(dbName).dropDatabase();
    await Promise.all(clients.map((c) => c.close()));
  });

  it('serializes read-modify-write so that no concurrent update is lost', async () => {
    await data.insertOne({ _id: 'c' as never, n: 0 });
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        locksOf(i).withLock('counters:c', async () => {
          const doc = await clients[i % 3]!.db(dbName).collection('counters').findOne({ _id: 'c' as never });
          await clients[i % 3]!.db(dbName).collection('counters').updateOne({ _id: 'c' as never }, { $set: { n: (doc?.n as number) + 1 } });
        }),
      ),
    );
    expect((await data.findOne({ _id: 'c' as never }))?.n).toBe(30);
  });

  it('gives a lock to exactly one of many concurrent takers', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => locksOf(i).tryAcquire('one-winner')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lets a lock be taken over only after its holder’s lease passed', async () => {
    const first = await locksOf(0).tryAcquire('lease', 150);
    expect(first).not.toBeNull();
    expect(await locksOf(1).tryAcquire('lease', 150)).toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    const second = await locksOf(1).tryAcquire('lease', 5_000);
    expect(second).not.toBeNull();
    // The crashed holder's late release must not free the new holder's lock.
    await locksOf(0).release(first!);
    expect(await locksOf(2).tryAcquire('lease')).toBeNull();
  });
});

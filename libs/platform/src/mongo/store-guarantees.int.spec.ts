import { MongoClient, type Collection, type Db } from 'mongodb';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '../testing';
import { isDuplicateKeyError } from './connect';

/**
 * What every writer of the platform relies on from the store (ARCHITECTURE.md "Local
 * infrastructure": one atomic conditional single-document write per state change, no lock
 * protocol). Runs against whatever store the suite uses (MONGO_URL, a mongo:7 container, or the
 * local mongo-java-server) and fails on one that breaks a guarantee. FerretDB 1.x fails the first
 * three (measured: 500 concurrent $inc → 2; 40 claims of 20 documents → 40 claims; 40 guarded
 * refunds of 600 under a 10 000 ceiling → 40 accepted).
 */
jest.setTimeout(60_000);

interface Counter {
  _id: string;
  n: number;
}
interface Job {
  _id: string;
  claimed_by: string | null;
}
interface Charge {
  _id: string;
  amount: number;
  refunded: number;
}

describe('store guarantees', () => {
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    // A pool as wide as the concurrency below, so the operations really reach the store at once.
    client = await MongoClient.connect(infra.mongoUrl, { maxPoolSize: 100 });
    db = client.db(`${uniqueDbPrefix('store_guarantees')}db`);
  });

  afterAll(async () => {
    await dropTestDatabase(db);
    await client.close();
  });

  it('applies 500 concurrent $inc of one field exactly 500 times', async () => {
    const counters: Collection<Counter> = db.collection('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    await Promise.all(Array.from({ length: 500 }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })));
    expect((await counters.findOne({ _id: 'c' }))?.n).toBe(500);
  });

  it('hands each document to exactly one of 40 concurrent findOneAndUpdate claims', async () => {
    const jobs: Collection<Job> = db.collection('jobs');
    await jobs.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `job_${i}`, claimed_by: null })));
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, worker) =>
        jobs.findOneAndUpdate({ claimed_by: null }, { $set: { claimed_by: `w${worker}` } }, { returnDocument: 'after' }),
      ),
    );
    const won = claims.filter((claim): claim is Job => claim !== null);
    expect(won).toHaveLength(20);
    expect(new Set(won.map((job) => job._id)).size).toBe(20);
    // Each winner sees its own claim in the returned document, and the store agrees with it.
    for (const job of won) {
      const stored = await jobs.findOne({ _id: job._id });
      expect(stored?.claimed_by).toBe(job.claimed_by);
    }
  });

  it('never lets 40 concurrent guarded $inc pass their ceiling (refund 600 while refunded ≤ 9 400)', async () => {
    const charges: Collection<Charge> = db.collection('charges');
    await charges.insertOne({ _id: 'ch', amount: 10_000, refunded: 0 });
    const results = await Promise.all(
      Array.from({ length: 40 }, () => charges.updateOne({ _id: 'ch', refunded: { $lte: 10_000 - 600 } }, { $inc: { refunded: 600 } })),
    );
    const accepted = results.filter((result) => result.modifiedCount === 1).length;
    expect(accepted).toBe(16);
    expect((await charges.findOne({ _id: 'ch' }))?.refunded).toBe(16 * 600);
  });

  it('answers a unique-index violation with error 11000 and keeps the first document', async () => {
    const keys = db.collection<{ _id: string; key: string; owner: string }>('keys');
    await keys.createIndex({ key: 1 }, { unique: true });
    await keys.insertOne({ _id: 'k1', key: 'same', owner: 'first' });
    const second = await keys.insertOne({ _id: 'k2', key: 'same', owner: 'second' }).catch((error: unknown) => error);
    expect(isDuplicateKeyError(second)).toBe(true);
    expect(await keys.countDocuments({ key: 'same' })).toBe(1);
    expect((await keys.findOne({ key: 'same' }))?.owner).toBe('first');
  });

  it('makes exactly one of 50 concurrent inserts of one unique key win', async () => {
    const records = db.collection<{ _id: string }>('idempotency');
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => records.insertOne({ _id: 'idem_1' })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected).toHaveLength(49);
    expect(rejected.every((o) => isDuplicateKeyError(o.reason))).toBe(true);
  });

  it('returns the updated document from findOneAndUpdate with returnDocument after, and null when the filter no longer matches', async () => {
    const payments = db.collection<{ _id: string; status: string; events: string[] }>('payments');
    await payments.insertOne({ _id: 'pay_1', status: 'pending', events: [] });
    const moved = await payments.findOneAndUpdate(
      { _id: 'pay_1', status: 'pending' },
      { $set: { status: 'succeeded' }, $push: { events: 'payment.succeeded' } },
      { returnDocument: 'after' },
    );
    expect(moved).toEqual({ _id: 'pay_1', status: 'succeeded', events: ['payment.succeeded'] });
    const again = await payments.findOneAndUpdate({ _id: 'pay_1', status: 'pending' }, { $set: { status: 'canceled' } }, { returnDocument: 'after' });
    expect(again).toBeNull();
    expect((await payments.findOne({ _id: 'pay_1' }))?.status).toBe('succeeded');
  });

  it('lets exactly one of 30 concurrent conditional transitions of one document win, with its $push intact', async () => {
    const payments = db.collection<{ _id: string; status: string; outbox: string[] }>('transitions');
    await payments.insertOne({ _id: 'pay_2', status: 'pending', outbox: [] });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        payments.updateOne({ _id: 'pay_2', status: 'pending' }, { $set: { status: i % 2 ? 'succeeded' : 'canceled' }, $push: { outbox: `evt_${i}` } }),
      ),
    );
    expect(results.filter((result) => result.modifiedCount === 1)).toHaveLength(1);
    const stored = await payments.findOne({ _id: 'pay_2' });
    expect(stored?.outbox).toHaveLength(1);
  });

  it('removes published outbox entries by $pull without losing entries pushed concurrently', async () => {
    const docs = db.collection<{ _id: string; outbox: { id: string }[] }>('outboxes');
    await docs.insertOne({ _id: 'd', outbox: Array.from({ length: 50 }, (_, i) => ({ id: `old_${i}` })) });
    await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => docs.updateOne({ _id: 'd' }, { $pull: { outbox: { id: `old_${i}` } } })),
      ...Array.from({ length: 50 }, (_, i) => docs.updateOne({ _id: 'd' }, { $push: { outbox: { id: `new_${i}` } } })),
    ]);
    const ids = (await docs.findOne({ _id: 'd' }))?.outbox.map((entry) => entry.id) ?? [];
    expect(ids.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `new_${i}`).sort());
  });
});

import { LockManager } from '@orquestra/platform';
import { ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import { MongoClient, type Collection, type Document } from 'mongodb';
import pino from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentActions } from '../orchestration/payment-actions';
import { FOLLOW_UP_DELAYS_MS, RefundFollowUps } from './refund-follow-ups';

jest.setTimeout(60_000);

describe('refund follow-ups against the real store', () => {
  let mongo: MongoClient;
  let collection: Collection<Document>;
  let locks: LockManager;
  const synced: string[] = [];
  let refundStatus: 'pending' | 'succeeded' = 'pending';
  // The payments side as the worker sees it: sync answers the payment with its refunds.
  const actions = {
    sync: async (paymentId: string) => {
      synced.push(paymentId);
      return { _id: paymentId, refunds: [{ id: 're_1', status: refundStatus }] } as unknown as PaymentDoc;
    },
  } as unknown as PaymentActions;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    mongo = await MongoClient.connect(infra.mongoUrl);
    const db = mongo.db(`${uniqueDbPrefix('rfu')}payments`);
    collection = db.collection('refund_follow_ups');
    locks = new LockManager(db.collection('locks'));
  });
  afterAll(async () => {
    await mongo.db(collection.dbName).dropDatabase();
    await mongo.close();
  });

  it('re-checks a pending refund with backoff until the provider settles it, then forgets it', async () => {
    const followUps = new RefundFollowUps(collection, locks, actions, pino({ level: 'silent' }));
    await followUps.record('re_1', { _id: 'pay_1', merchant_id: 'acct_1', mode: 'test' });
    await followUps.record('re_1', { _id: 'pay_1', merchant_id: 'acct_1', mode: 'test' }); // idempotent
    expect(await collection.countDocuments()).toBe(1);

    // Not due yet: nothing happens.
    expect(await followUps.worker.tick()).toBe(0);
    expect(synced).toEqual([]);

    await collection.updateOne({ _id: 're_1' as never }, { $set: { due_at: new Date(Date.now() - 1) } });
    expect(await followUps.worker.tick()).toBe(1);
    expect(synced).toEqual(['pay_1']);
    const rescheduled = await collection.findOne({ _id: 're_1' as never });
    expect(rescheduled).toMatchObject({ tries: 1 });
    const wait = (rescheduled?.['due_at'] as Date).getTime() - Date.now();
    expect(wait).toBeGreaterThan((FOLLOW_UP_DELAYS_MS[1] ?? 0) - 5_000);
    expect(wait).toBeLessThanOrEqual(FOLLOW_UP_DELAYS_MS[1] ?? 0);

    refundStatus = 'succeeded';
    await collection.updateOne({ _id: 're_1' as never }, { $set: { due_at: new Date(Date.now() - 1) } });
    expect(await followUps.worker.tick()).toBe(1);
    expect(synced).toEqual(['pay_1', 'pay_1']);
    expect(await collection.countDocuments()).toBe(0);
  });
});

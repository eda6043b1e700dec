import { connectDatabase, ensureIndexes } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { DueRecords } from '../db/due-records';
import type { PaymentDoc } from '../db/payment.model';
import { registerRefundFollowUpModel, type RefundFollowUpModel } from '../db/refund-follow-up.model';
import { FOLLOW_UP_DELAYS_MS, RefundFollowUpRecorder, RefundFollowUps, type SyncPayment } from './refund-follow-ups';

jest.setTimeout(60_000);

describe('refund follow-ups against the real store', () => {
  let db: Connection;
  let model: RefundFollowUpModel;
  const synced: string[] = [];
  let refundStatus: 'pending' | 'succeeded' = 'pending';
  // The payments side as the worker sees it: sync answers the payment with its refunds.
  const sync: SyncPayment = async (paymentId) => {
    synced.push(paymentId);
    return { _id: paymentId, refunds: [{ id: 're_1', status: refundStatus }] } as unknown as PaymentDoc;
  };

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('rfu')}payments`, logger: pino({ level: 'silent' }) });
    model = registerRefundFollowUpModel(db);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  it('re-checks a pending refund with backoff until the provider settles it, then forgets it', async () => {
    const records = new DueRecords(model);
    const recorder = new RefundFollowUpRecorder(records);
    const followUps = new RefundFollowUps(records, sync, pino({ level: 'silent' }));
    await recorder.record('re_1', { _id: 'pay_1', merchant_id: 'acct_1', mode: 'test' });
    await recorder.record('re_1', { _id: 'pay_1', merchant_id: 'acct_1', mode: 'test' }); // idempotent
    expect(await model.countDocuments()).toBe(1);

    // Not due yet: nothing happens.
    expect(await followUps.worker.tick()).toBe(0);
    expect(synced).toEqual([]);

    await model.updateOne({ _id: 're_1' }, { $set: { due_at: new Date(Date.now() - 1) } });
    expect(await followUps.worker.tick()).toBe(1);
    expect(synced).toEqual(['pay_1']);
    const rescheduled = await model.findById('re_1').lean();
    expect(rescheduled).toMatchObject({ tries: 1 });
    const wait = (rescheduled?.due_at as Date).getTime() - Date.now();
    expect(wait).toBeGreaterThan((FOLLOW_UP_DELAYS_MS[1] ?? 0) - 5_000);
    expect(wait).toBeLessThanOrEqual(FOLLOW_UP_DELAYS_MS[1] ?? 0);

    refundStatus = 'succeeded';
    await model.updateOne({ _id: 're_1' }, { $set: { due_at: new Date(Date.now() - 1) } });
    expect(await followUps.worker.tick()).toBe(1);
    expect(synced).toEqual(['pay_1', 'pay_1']);
    expect(await model.countDocuments()).toBe(0);
  });
});

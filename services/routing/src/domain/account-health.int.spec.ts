import { connectDatabase, ensureIndexes } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerHealthBucketModel, type HealthBucketModel } from '../db/health-bucket.model';
import { AccountHealth } from './account-health';

jest.setTimeout(60_000);

describe('AccountHealth against the real store', () => {
  let db: Connection;
  let buckets: HealthBucketModel;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('health')}routing`, logger: pino({ level: 'silent' }) });
    buckets = registerHealthBucketModel(db);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  it('counts concurrent outcomes per account over the window, declines as healthy, old buckets out', async () => {
    const health = new AccountHealth(buckets, pino({ level: 'silent' }), 5 * 60_000);
    const now = new Date();
    const outcomes = [
      ...Array.from({ length: 60 }, () => ({ account_id: 'pa_a', outcome: 'succeeded' })),
      ...Array.from({ length: 20 }, () => ({ account_id: 'pa_a', outcome: 'declined' })),
      ...Array.from({ length: 20 }, () => ({ account_id: 'pa_a', outcome: 'provider_error' })),
      ...Array.from({ length: 30 }, () => ({ account_id: 'pa_b', outcome: 'timeout' })),
    ];
    await Promise.all(outcomes.map((o) => health.record({ merchant_id: 'acct_h', ...o, at: now })));
    // Outside the window: must not count, and is removed once twice as old.
    await health.record({ merchant_id: 'acct_h', account_id: 'pa_a', outcome: 'timeout', at: new Date(now.getTime() - 6 * 60_000) });
    await health.record({ merchant_id: 'acct_h', account_id: 'pa_a', outcome: 'timeout', at: new Date(now.getTime() - 11 * 60_000) });
    await health.refresh();
    expect(health.snapshot().get('pa_a')).toEqual({ attempts: 100, successes: 80 });
    expect(health.snapshot().get('pa_b')).toEqual({ attempts: 30, successes: 0 });
    // One bucket for the 100 concurrent outcomes, one 6 minutes old; the 11-minute one is gone.
    expect(await buckets.countDocuments({ account_id: 'pa_a' })).toBe(2);
    expect(await buckets.countDocuments({ bucket_start: { $lt: new Date(now.getTime() - 10 * 60_000) } })).toBe(0);
  });
});

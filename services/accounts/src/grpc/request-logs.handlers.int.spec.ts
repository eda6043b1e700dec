import { accounts, common } from '@orquestra/contracts';
import { connectDatabase, ensureIndexes, newId, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerAccountsModels, type AccountsModels } from '../db/accounts.models';
import { REQUEST_LOG_RETENTION_DAYS } from '../db/request-log.model';
import { accountsHandlers } from './accounts.handlers';

jest.setTimeout(60_000);

const { MODE_TEST: TEST, MODE_LIVE: LIVE } = common.Mode;

describe('request logs against the real store', () => {
  let db: Connection;
  let models: AccountsModels;
  let rpc: Handlers<typeof accounts.AccountsServiceService>;
  const ctx = {} as never;
  const merchant = 'acct_rlog_a';
  const other = 'acct_rlog_b';
  let clock = Date.parse('2026-11-28T12:00:00.000Z');

  function entry(overrides: Partial<accounts.RequestLogEntry> = {}): accounts.RequestLogEntry {
    clock += 1000;
    return {
      id: newId('requestLog', clock),
      merchant_id: merchant,
      mode: TEST,
      key_id: 'key_1',
      key_last4: 'abcd',
      method: 'GET',
      path: '/v1/payments',
      status: 200,
      request_id: `req_${clock}`,
      duration_ms: 12.34,
      created_at: new Date(clock).toISOString(),
      ...overrides,
    };
  }
  const caller = (merchant_id: string, mode = TEST) => ({ merchant_id, mode, key_id: 'key_1', restricted: false, request_id: 'req_x' });

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('rlog')}accounts`, logger: pino({ level: 'silent' }) });
    models = registerAccountsModels(db);
    await ensureIndexes(db);
    rpc = accountsHandlers(models);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  it('keeps a batch and lists it newest first, by merchant and mode only', async () => {
    const mine = [entry({ status: 201, method: 'POST' }), entry({ status: 404, path: '/v1/payments/pay_x' }), entry({ status: 500 })];
    const batch = [...mine, entry({ merchant_id: other }), entry({ mode: LIVE })];
    expect((await rpc.recordRequestLogs({ entries: batch }, ctx)).recorded).toBe(5);

    const listed = await rpc.listRequestLogs({ caller: caller(merchant), limit: 10, starting_after: '', status: '' }, ctx);
    expect(listed.data.map((e) => e.id)).toEqual(mine.map((e) => e.id).reverse());
    expect(listed.has_more).toBe(false);
    expect(listed.data[2]).toEqual({ ...mine[0], duration_ms: 12.3 });

    const page = await rpc.listRequestLogs({ caller: caller(merchant), limit: 2, starting_after: '', status: '' }, ctx);
    expect(page).toMatchObject({ has_more: true });
    const next = await rpc.listRequestLogs({ caller: caller(merchant), limit: 2, starting_after: page.data[1]!.id, status: '' }, ctx);
    expect(next.data.map((e) => e.id)).toEqual([mine[0]!.id]);

    const live = await rpc.listRequestLogs({ caller: caller(merchant, LIVE), limit: 10, starting_after: '', status: '' }, ctx);
    expect(live.data).toHaveLength(1);
  });

  it('filters by a status class or one status, and refuses another filter in Portuguese', async () => {
    const list = (status: string) => rpc.listRequestLogs({ caller: caller(merchant), limit: 100, starting_after: '', status }, ctx);
    expect((await list('4xx')).data.map((e) => e.status)).toEqual([404]);
    expect((await list('500')).data.map((e) => e.status)).toEqual([500]);
    expect((await list('2xx')).data.map((e) => e.status)).toEqual([201]);
    await expect(list('abc')).rejects.toMatchObject({ code: 'parameter_invalid', param: 'status' });
  });

  it('skips a replayed batch without failing, and drops entries that are not request logs', async () => {
    const fresh = entry({ merchant_id: other });
    const replay = await rpc.recordRequestLogs({ entries: [fresh, entry({ id: 'pay_not_a_log' }), entry({ mode: common.Mode.MODE_UNSPECIFIED })] }, ctx);
    expect(replay.recorded).toBe(1);
    const again = await rpc.recordRequestLogs({ entries: [fresh, entry({ merchant_id: other })] }, ctx);
    expect(again.recorded).toBe(1);
    expect(await models.requestLogs.countDocuments({ merchant_id: other })).toBe(3);
  });

  it('declares the TTL index that removes entries after the retention', async () => {
    const indexes = await models.requestLogs.collection.indexes();
    expect(indexes).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: { created_at: 1 }, expireAfterSeconds: REQUEST_LOG_RETENTION_DAYS * 86_400 })]),
    );
  });
});

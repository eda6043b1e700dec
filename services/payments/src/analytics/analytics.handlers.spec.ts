import { common } from '@orquestra/contracts';
import { analyticsHandlers } from './analytics.handlers';
import type { AnalyticsOverview } from './overview';

describe('analyticsHandlers', () => {
  const asked: unknown[] = [];
  const overview = {
    get: async (scope: unknown, start: string, end: string) => {
      asked.push([scope, start, end]);
      return { start_date: start, end_date: end, timezone: 'America/Sao_Paulo', by_provider: [], by_method: [], daily: [] };
    },
  } as unknown as AnalyticsOverview;
  const handlers = analyticsHandlers(overview);
  const caller = (restricted: boolean) => ({ merchant_id: 'acct_1', mode: common.Mode.MODE_TEST, key_id: 'key_1', restricted, request_id: 'req_1' });

  it("reads the caller's merchant and mode", async () => {
    await handlers.getOverview({ caller: caller(false), start_date: '2026-11-01', end_date: '2026-11-30' }, {} as never);
    expect(asked).toEqual([[{ merchantId: 'acct_1', mode: 'test' }, '2026-11-01', '2026-11-30']]);
  });

  it('refuses a restricted key (the figures cover payments it may not read) and an anonymous call', async () => {
    await expect(handlers.getOverview({ caller: caller(true), start_date: '2026-11-01', end_date: '2026-11-30' }, {} as never)).rejects.toMatchObject({ code: 'restricted_key' });
    await expect(handlers.getOverview({ caller: undefined, start_date: '2026-11-01', end_date: '2026-11-30' }, {} as never)).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});

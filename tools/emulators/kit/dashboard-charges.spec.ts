import { DASHBOARD_STATUSES, dashboardChargeSchema, reachDashboardStatus, type DashboardStatus } from './dashboard-charges';

describe('dashboard charges', () => {
  it.each([
    ['pending', []],
    ['paid', ['paid']],
    ['refunded', ['paid', 'refunded']],
    ['canceled', ['canceled']],
    ['expired', ['expired']],
    ['failed', ['failed']],
  ] as const)('reaches %s from pending by %j', (status, moves) => {
    const made: DashboardStatus[] = [];
    reachDashboardStatus<DashboardStatus>(status, (target) => made.push(target));
    expect(made).toEqual(moves);
  });

  it('defaults a charge to a pending Pix and refuses statuses the provider lacks and unknown fields', () => {
    const schema = dashboardChargeSchema(['pending', 'paid', 'refunded'] as const);
    expect(schema.parse({ account: 'key', amount: 100 })).toEqual({ account: 'key', amount: 100, method: 'pix', status: 'pending' });
    expect(schema.safeParse({ account: 'key', amount: 100, status: 'failed' }).success).toBe(false);
    expect(schema.safeParse({ account: 'key', amount: 100, extra: 1 }).success).toBe(false);
    expect(dashboardChargeSchema(DASHBOARD_STATUSES).parse({ account: 'k', amount: 1, status: 'failed' }).status).toBe('failed');
  });
});

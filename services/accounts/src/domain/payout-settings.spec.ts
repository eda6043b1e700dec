import { DEFAULT_PAYOUT_SETTINGS, checkDailyLimit } from './payout-settings';

describe('payout settings', () => {
  it('start with payouts by API off and R$ 10.000,00 a day', () => {
    expect(DEFAULT_PAYOUT_SETTINGS).toEqual({ api_enabled: false, daily_limit: 1_000_000 });
  });

  it('take a daily limit of whole cents ≥ 1 only', () => {
    expect(checkDailyLimit(1)).toBe(1);
    expect(checkDailyLimit(50_000_000)).toBe(50_000_000);
    for (const bad of [0, -5, 10.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => checkDailyLimit(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'daily_limit' }));
    }
  });
});

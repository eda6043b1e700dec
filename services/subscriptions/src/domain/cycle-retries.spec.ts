import { isBusinessDay } from './business-days';
import { addDays } from './calendar-date';
import { MAX_RETRIES, nextRetryDate, retryDateFrom, retryDates, retryPolicyOf } from './cycle-retries';

describe('cycle retries', () => {
  it('maps the retry flag to the Banco Central policy', () => {
    expect(retryPolicyOf(true)).toBe('PERMITE_3R_7D');
    expect(retryPolicyOf(false)).toBe('NAO_PERMITE');
  });

  it('without retries, the first failure is final', () => {
    expect(retryDates('2026-06-01', 'NAO_PERMITE')).toEqual([]);
    expect(nextRetryDate('2026-06-01', 'NAO_PERMITE', 1)).toBeNull();
  });

  it('retries three times, two days apart, within 7 days of the due date', () => {
    expect(retryDates('2026-06-01', 'PERMITE_3R_7D')).toEqual(['2026-06-03', '2026-06-05', '2026-06-08']); // the 7th (Sunday) moves to Monday the 8th
  });

  it('moves a retry off a weekend or holiday', () => {
    // 17th Friday; 19th Sunday → 20th; 21st Tiradentes → 22nd, the 7th day.
    expect(retryDates('2026-04-15', 'PERMITE_3R_7D')).toEqual(['2026-04-17', '2026-04-20', '2026-04-22']);
  });

  it('drops a retry pushed past the 7th day', () => {
    // 13th Friday; 15th Sunday → Carnaval → Ash Wednesday 18th (the 7th day); the third would be the 19th.
    expect(retryDates('2026-02-11', 'PERMITE_3R_7D')).toEqual(['2026-02-13', '2026-02-18']);
  });

  it('for every due date of 2026 and 2027: at most 3 retries, on business days, increasing, within 7 days after the due date', () => {
    for (let due = '2026-01-01'; due <= '2027-12-31'; due = addDays(due, 1)) {
      const dates = retryDates(due, 'PERMITE_3R_7D');
      expect(dates.length).toBeGreaterThanOrEqual(1);
      expect(dates.length).toBeLessThanOrEqual(MAX_RETRIES);
      let previous = due;
      for (const date of dates) {
        expect(isBusinessDay(date)).toBe(true);
        expect(date > previous).toBe(true);
        expect(date <= addDays(due, 7)).toBe(true);
        previous = date;
      }
    }
  });

  it('names the next retry after each failed attempt, then none', () => {
    expect(nextRetryDate('2026-06-01', 'PERMITE_3R_7D', 1)).toBe('2026-06-03');
    expect(nextRetryDate('2026-06-01', 'PERMITE_3R_7D', 2)).toBe('2026-06-05');
    expect(nextRetryDate('2026-06-01', 'PERMITE_3R_7D', 3)).toBe('2026-06-08');
    expect(nextRetryDate('2026-06-01', 'PERMITE_3R_7D', 4)).toBeNull();
    expect(() => nextRetryDate('2026-06-01', 'PERMITE_3R_7D', 0)).toThrow(RangeError);
  });
});

describe('retryDateFrom (the retry asked for on a given day)', () => {
  it('is the planned date while it is still ahead', () => {
    expect(retryDateFrom('2026-03-02', 'PERMITE_3R_7D', 1, '2026-03-02')).toBe(nextRetryDate('2026-03-02', 'PERMITE_3R_7D', 1));
  });

  it('moves to the next business day when the planned one has come, within the 7 days', () => {
    const planned = nextRetryDate('2026-03-02', 'PERMITE_3R_7D', 1)!;
    expect(retryDateFrom('2026-03-02', 'PERMITE_3R_7D', 1, planned)).toBe('2026-03-05');
    // Friday: the next business day is Monday, still within 7 days of the due date.
    expect(retryDateFrom('2026-03-02', 'PERMITE_3R_7D', 1, '2026-03-06')).toBe('2026-03-09');
    expect(retryDateFrom('2026-03-02', 'PERMITE_3R_7D', 1, '2026-03-09')).toBeNull();
  });

  it('is null without retries', () => {
    expect(retryDateFrom('2026-03-02', 'NAO_PERMITE', 1, '2026-03-02')).toBeNull();
  });
});

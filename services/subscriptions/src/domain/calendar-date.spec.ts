import { addDays, dayOfWeek, daysBetween, daysInMonth, isCalendarDate, saoPauloDate } from './calendar-date';

describe('calendar dates', () => {
  it('accepts only YYYY-MM-DD days that exist', () => {
    expect(isCalendarDate('2026-11-24')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true); // leap year
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2100-02-29')).toBe(false); // century, not leap
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-00-10')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(isCalendarDate('2026-01-01T00:00:00Z')).toBe(false);
    expect(isCalendarDate('')).toBe(false);
  });

  it('counts month lengths, February by the leap rule', () => {
    expect([2026, 2028, 2100, 2000].map((year) => daysInMonth(year, 2))).toEqual([28, 29, 28, 29]);
    expect(daysInMonth(2026, 4)).toBe(30);
    expect(daysInMonth(2026, 12)).toBe(31);
  });

  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-11-24', 0)).toBe('2026-11-24');
    expect(daysBetween('2026-02-20', '2026-03-02')).toBe(10);
    expect(daysBetween('2026-03-02', '2026-02-20')).toBe(-10);
  });

  it('names the weekday (0 Sunday … 6 Saturday)', () => {
    expect(dayOfWeek('2026-11-24')).toBe(2); // Tuesday
    expect(dayOfWeek('2026-11-22')).toBe(0);
    expect(dayOfWeek('2026-11-28')).toBe(6);
    expect(dayOfWeek('1970-01-01')).toBe(4);
  });

  it("takes today's date from São Paulo's clock, not the host's or UTC", () => {
    expect(saoPauloDate(new Date('2026-11-25T02:59:59Z'))).toBe('2026-11-24'); // 23:59:59 in São Paulo
    expect(saoPauloDate(new Date('2026-11-25T03:00:00Z'))).toBe('2026-11-25');
    expect(saoPauloDate(new Date('2027-01-01T02:30:00Z'))).toBe('2026-12-31');
  });
});

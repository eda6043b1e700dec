import { businessDaysBetween, isBusinessDay } from './business-days';
import { addDays, daysBetween } from './calendar-date';
import { chargeDueDateRange, chargeSendWindow, validateChargeDueDate, windowPosition } from './charge-window';

describe('the send window of a cycle charge', () => {
  it('ends 2 business days before the due date, across a weekend and a holiday', () => {
    expect(chargeSendWindow('2026-04-22')).toEqual({ earliest: '2026-04-12', latest: '2026-04-17' }); // Tiradentes (21st) and a weekend
    expect(chargeSendWindow('2026-04-07')).toEqual({ earliest: '2026-03-28', latest: '2026-04-02' }); // a weekend and Good Friday
    expect(chargeSendWindow('2026-11-23')).toEqual({ earliest: '2026-11-13', latest: '2026-11-18' }); // Consciência Negra (Fri 20th) and a weekend
    expect(chargeSendWindow('2026-11-25')).toEqual({ earliest: '2026-11-15', latest: '2026-11-23' });
  });

  it('for every due date of 2026 and 2027 (a business day, as cycles are due): opens 10 calendar days before, closes 2 business days before', () => {
    for (let due = '2026-01-01'; due <= '2027-12-31'; due = addDays(due, 1)) {
      if (!isBusinessDay(due)) continue;
      const window = chargeSendWindow(due);
      expect(daysBetween(window.earliest, due)).toBe(10);
      expect(isBusinessDay(window.latest)).toBe(true);
      expect(businessDaysBetween(window.latest, due)).toBe(2);
      expect(window.earliest <= window.latest).toBe(true);
    }
  });

  it('tells the scheduler whether today is before, inside or past the window', () => {
    const window = chargeSendWindow('2026-04-22');
    expect(windowPosition(window, '2026-04-11')).toBe('before');
    expect(windowPosition(window, '2026-04-12')).toBe('open');
    expect(windowPosition(window, '2026-04-17')).toBe('open');
    expect(windowPosition(window, '2026-04-18')).toBe('missed');
  });
});

describe('the due_date of POST /subscriptions/{id}/charge', () => {
  const today = '2026-04-01'; // a Wednesday before Good Friday

  it('ranges from 2 to 10 business days ahead', () => {
    expect(chargeDueDateRange(today)).toEqual({ earliest: '2026-04-06', latest: '2026-04-16' });
  });

  it('accepts business days inside the range, edges included', () => {
    expect(validateChargeDueDate('2026-04-06', today)).toEqual({ ok: true, value: '2026-04-06' });
    expect(validateChargeDueDate('2026-04-16', today)).toEqual({ ok: true, value: '2026-04-16' });
    expect(validateChargeDueDate('2026-04-10', today)).toEqual({ ok: true, value: '2026-04-10' });
  });

  it.each([
    ['2026-04-02', '1 business day ahead'],
    ['2026-04-17', '11 business days ahead'],
    ['2026-03-31', 'in the past'],
    ['2026-04-01', 'today'],
  ])('refuses %s (%s), naming the range', (dueDate) => {
    const result = validateChargeDueDate(dueDate, today);
    expect(result).toEqual({ ok: false, error: { code: 'parameter_invalid', param: 'due_date', message: expect.stringContaining('entre 2 e 10 dias úteis') } });
    if (!result.ok) expect(result.error.message).toContain('entre 2026-04-06 e 2026-04-16');
  });

  it('refuses a holiday or weekend inside the range, naming the next business day', () => {
    const holiday = validateChargeDueDate('2026-04-03', today);
    expect(holiday.ok).toBe(false);
    if (!holiday.ok) {
      expect(holiday.error.param).toBe('due_date');
      expect(holiday.error.message).toContain('não é dia útil');
      expect(holiday.error.message).toContain('2026-04-06');
    }
    expect(validateChargeDueDate('2026-04-11', today).ok).toBe(false);
  });

  it.each(['2026-4-6', '2026-02-30', '06/04/2026', ''])('refuses %j as not a date', (dueDate) => {
    const result = validateChargeDueDate(dueDate, today);
    expect(result).toEqual({ ok: false, error: { code: 'parameter_invalid', param: 'due_date', message: expect.stringContaining('AAAA-MM-DD') } });
  });
});

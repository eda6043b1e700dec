import { formatBrl, formatDateTime, formatDay, formatRate, parseBrlToCents, saoPauloDay } from './format';

describe('dashboard formatting', () => {
  it('shows integer cents as R$ with pt-BR grouping', () => {
    expect(formatBrl(0)).toBe('R$ 0,00');
    expect(formatBrl(5)).toBe('R$ 0,05');
    expect(formatBrl(123456)).toBe('R$ 1.234,56');
    expect(formatBrl(100_000_000)).toBe('R$ 1.000.000,00');
    expect(formatBrl(-50)).toBe('-R$ 0,50');
    expect(formatBrl(null)).toBe('—');
  });

  it('reads amounts typed in reais into cents', () => {
    expect(parseBrlToCents('10,50')).toBe(1050);
    expect(parseBrlToCents('R$ 1.234,5')).toBe(123450);
    expect(parseBrlToCents('7')).toBe(700);
    expect(parseBrlToCents('7.5')).toBe(750);
    expect(parseBrlToCents('1.000')).toBe(100000);
    expect(parseBrlToCents('0,01')).toBe(1);
    expect(parseBrlToCents('abc')).toBeUndefined();
    expect(parseBrlToCents('1,234')).toBeUndefined();
    expect(parseBrlToCents('')).toBeUndefined();
  });

  it('shows dates in São Paulo', () => {
    // 02:30 UTC is 23:30 of the day before in São Paulo (UTC-3).
    expect(formatDateTime('2026-11-28T02:30:00Z')).toBe('27/11/2026, 23:30');
    expect(formatDateTime(1_795_000_000)).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    expect(formatDateTime(null)).toBe('—');
    expect(formatDay('2026-11-28')).toBe('28/11/2026');
    expect(saoPauloDay(0, new Date('2026-11-28T02:30:00Z'))).toBe('2026-11-27');
    expect(saoPauloDay(1, new Date('2026-11-28T12:00:00Z'))).toBe('2026-11-27');
  });

  it('shows rates as percentages', () => {
    expect(formatRate(0.875)).toBe('87,5%');
    expect(formatRate(null)).toBe('—');
  });
});

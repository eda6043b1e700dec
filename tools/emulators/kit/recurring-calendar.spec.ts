import { addBusinessDays, cycleDate, cycleIndexOf, inSendingWindow, isBusinessDay, nextBusinessDay, saoPauloDate } from './recurring-calendar';

describe('the Pix Automático calendar', () => {
  it('reads dates in São Paulo time', () => {
    expect(saoPauloDate(new Date('2026-03-03T02:59:00Z'))).toBe('2026-03-02');
    expect(saoPauloDate(new Date('2026-03-03T03:00:00Z'))).toBe('2026-03-03');
  });

  it('skips weekends and national holidays', () => {
    expect(isBusinessDay('2026-04-21')).toBe(false); // Tiradentes
    expect(isBusinessDay('2026-04-25')).toBe(false); // Saturday
    expect(isBusinessDay('2026-02-16')).toBe(false); // Carnaval (a bank holiday)
    expect(isBusinessDay('2026-06-04')).toBe(false); // Corpus Christi (a bank holiday)
    expect(isBusinessDay('2026-02-18')).toBe(true); // Ash Wednesday: banks open
    expect(nextBusinessDay('2026-04-18')).toBe('2026-04-20');
    expect(addBusinessDays('2026-04-17', 2)).toBe('2026-04-22');
  });

  it('places cycles per frequency, clamping month ends', () => {
    expect(cycleDate('2026-01-31', 'MONTHLY', 1)).toBe('2026-02-28');
    expect(cycleDate('2026-01-31', 'MONTHLY', 2)).toBe('2026-03-31');
    expect(cycleDate('2026-01-05', 'WEEKLY', 2)).toBe('2026-01-19');
    expect(cycleDate('2026-01-15', 'QUARTERLY', 1)).toBe('2026-04-15');
    expect(cycleDate('2026-01-15', 'ANNUALLY', 1)).toBe('2027-01-15');
    expect(cycleIndexOf('2026-01-15', 'MONTHLY', '2026-03-14')).toBe(1);
    expect(cycleIndexOf('2026-01-15', 'MONTHLY', '2026-03-15')).toBe(2);
    expect(cycleIndexOf('2026-01-15', 'MONTHLY', '2026-01-14')).toBe(-1);
  });

  it('accepts a charge from 2 calendar days to 10 business days before its due date', () => {
    expect(inSendingWindow('2026-03-02', '2026-03-03')).toBe(false);
    expect(inSendingWindow('2026-03-02', '2026-03-04')).toBe(true);
    expect(inSendingWindow('2026-03-02', '2026-03-16')).toBe(true); // 10 business days (Monday to Monday + 4)
    expect(inSendingWindow('2026-03-02', '2026-03-17')).toBe(false);
  });
});

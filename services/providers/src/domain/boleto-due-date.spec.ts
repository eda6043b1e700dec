import { boletoDueDate, endOfDueDate } from './boleto-due-date';

describe('boleto due date', () => {
  it('counts days from today in São Paulo, not in UTC', () => {
    // 01:00 UTC on the 10th is still the 9th in São Paulo.
    expect(boletoDueDate(new Date('2026-11-10T01:00:00Z'), 3)).toBe('2026-11-12');
    expect(boletoDueDate(new Date('2026-11-10T03:00:00Z'), 3)).toBe('2026-11-13');
    expect(boletoDueDate(new Date('2026-12-30T12:00:00Z'), 3)).toBe('2027-01-02');
  });

  it('expires at the last second of the due day at UTC−03:00', () => {
    expect(endOfDueDate('2026-11-13').toISOString()).toBe('2026-11-14T02:59:59.000Z');
  });
});

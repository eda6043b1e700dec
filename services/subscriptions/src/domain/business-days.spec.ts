import { addBusinessDays, businessDayOnOrAfter, businessDaysBetween, isBusinessDay, isNationalHoliday } from './business-days';
import { addDays } from './calendar-date';

describe('Brazilian banking business days', () => {
  it.each([
    ['2026-01-01', 'Confraternização Universal'],
    ['2026-02-16', 'Carnaval (Monday)'],
    ['2026-02-17', 'Carnaval (Tuesday)'],
    ['2026-04-03', 'Sexta-feira Santa'],
    ['2026-04-21', 'Tiradentes'],
    ['2026-05-01', 'Dia do Trabalho'],
    ['2026-06-04', 'Corpus Christi'],
    ['2026-09-07', 'Independência'],
    ['2026-10-12', 'Nossa Senhora Aparecida'],
    ['2026-11-02', 'Finados'],
    ['2026-11-20', 'Consciência Negra'],
    ['2026-12-25', 'Natal'],
    ['2027-03-26', 'Sexta-feira Santa 2027'],
  ])('%s (%s) is not a business day', (date) => {
    expect(isNationalHoliday(date)).toBe(true);
    expect(isBusinessDay(date)).toBe(false);
  });

  it.each([
    ['2026-02-18', 'Ash Wednesday (banks open at noon)'],
    ['2026-06-12', 'Dia dos Namorados (observance)'],
    ['2026-12-24', "Christmas Eve (optional, afternoon)"],
    ['2026-12-31', "New Year's Eve (optional, afternoon)"],
    ['2026-07-09', "a state holiday (São Paulo's Revolução Constitucionalista)"],
    ['2026-01-20', "a municipal holiday (Rio de Janeiro's São Sebastião)"],
  ])('%s (%s) is a business day', (date) => {
    expect(isNationalHoliday(date)).toBe(false);
    expect(isBusinessDay(date)).toBe(true);
  });

  it('weekends are not business days', () => {
    expect(isBusinessDay('2026-11-21')).toBe(false);
    expect(isBusinessDay('2026-11-22')).toBe(false);
    expect(isBusinessDay('2026-11-23')).toBe(true);
  });

  it('moves a non-business day to the next business day', () => {
    expect(businessDayOnOrAfter('2026-04-03')).toBe('2026-04-06'); // Good Friday, then the weekend
    expect(businessDayOnOrAfter('2026-02-14')).toBe('2026-02-18'); // Carnaval Saturday to Ash Wednesday
    expect(businessDayOnOrAfter('2026-11-20')).toBe('2026-11-23');
    expect(businessDayOnOrAfter('2026-12-25')).toBe('2026-12-28');
    expect(businessDayOnOrAfter('2026-11-24')).toBe('2026-11-24');
  });

  it('adds business days over weekends and holidays, forwards and backwards', () => {
    expect(addBusinessDays('2026-04-02', 1)).toBe('2026-04-06'); // Thursday + 1 skips Good Friday and the weekend
    expect(addBusinessDays('2026-04-20', 1)).toBe('2026-04-22'); // skips Tiradentes
    expect(addBusinessDays('2026-04-22', -1)).toBe('2026-04-20');
    expect(addBusinessDays('2026-04-06', -1)).toBe('2026-04-02');
    expect(addBusinessDays('2026-11-19', 2)).toBe('2026-11-24'); // Consciência Negra and the weekend
    expect(addBusinessDays('2026-12-23', 3)).toBe('2026-12-29'); // 24 (business), 28, 29
    expect(addBusinessDays('2026-11-21', 1)).toBe('2026-11-23'); // from a Saturday
    expect(addBusinessDays('2026-11-21', 0)).toBe('2026-11-21');
    expect(addBusinessDays('2026-02-13', 1)).toBe('2026-02-18'); // over Carnaval
  });

  it('counts business days after `from` up to `to`', () => {
    expect(businessDaysBetween('2026-04-01', '2026-04-06')).toBe(2); // 2 (Thu) and 6 (Mon)
    expect(businessDaysBetween('2026-04-06', '2026-04-01')).toBe(-2);
    expect(businessDaysBetween('2026-04-01', '2026-04-01')).toBe(0);
    expect(businessDaysBetween('2026-12-24', '2026-12-28')).toBe(1);
  });

  it('businessDaysBetween inverts addBusinessDays for every start day of 2026 and 0 to 12 days', () => {
    for (let day = '2026-01-01'; day <= '2026-12-31'; day = addDays(day, 1)) {
      for (let n = 0; n <= 12; n += 1) {
        const target = addBusinessDays(day, n);
        expect(businessDaysBetween(day, target)).toBe(n);
        if (n > 0) expect(isBusinessDay(target)).toBe(true);
      }
    }
  });
});

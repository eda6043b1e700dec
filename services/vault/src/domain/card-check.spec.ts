import { AppError } from '@orquestra/platform';
import { brandOf, checkCard, isExpired, saoPauloMonth } from './card-check';

// 2026-11-25 12:00 UTC: November in São Paulo.
const NOW = new Date('2026-11-25T12:00:00Z');
const ok = { expMonth: 12, expYear: 2030, cvc: '123' };

function refusal(run: () => unknown): { code: string; param: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkCard', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223000048400011', 'mastercard'],
    ['6362970000457013', 'elo'],
    ['5067224275805500', 'elo'],
    ['4389350000000002', 'elo'],
    ['6062825624254001', 'hipercard'],
    ['36227206271667', 'diners-club'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'jcb'],
  ])('%s is %s', (number, brand) => {
    expect(brandOf(number)).toBe(brand);
    expect(checkCard({ number, ...ok }, NOW)).toMatchObject({ brand, last4: number.slice(-4), expMonth: 12, expYear: 2030 });
  });

  it('American Express takes a 4-digit code and refuses 3', () => {
    expect(checkCard({ number: '378282246310005', expMonth: 1, expYear: 2031, cvc: '1234' }, NOW).brand).toBe('american-express');
    expect(refusal(() => checkCard({ number: '378282246310005', expMonth: 1, expYear: 2031, cvc: '123' }, NOW))).toMatchObject({ code: 'parameter_invalid', param: 'cvc' });
    expect(refusal(() => checkCard({ number: '4111111111111111', ...ok, cvc: '1234' }, NOW))).toMatchObject({ param: 'cvc' });
    expect(refusal(() => checkCard({ number: '4111111111111111', ...ok, cvc: '' }, NOW))).toMatchObject({ code: 'parameter_missing', param: 'cvc' });
  });

  it('refuses a failed Luhn check, non-digits and brands the vault does not take, naming number and never echoing it', () => {
    for (const number of ['4111111111111112', '4111-1111-1111-1111', '12345', '']) {
      const answer = refusal(() => checkCard({ number, ...ok }, NOW));
      expect(answer.param).toBe('number');
      if (number) expect(answer.message).not.toContain(number);
    }
    // Maestro and UnionPay are valid numbers of brands outside the spec's list.
    const maestro = refusal(() => checkCard({ number: '6759649826438453', ...ok }, NOW));
    expect(maestro).toMatchObject({ code: 'parameter_invalid', param: 'number' });
    expect(maestro.message).toContain('não é aceita');
    expect(refusal(() => checkCard({ number: '6221260000000000', ...ok }, NOW)).param).toBe('number');
  });

  it('expiry: this month is still valid, last month is not; month and year ranges', () => {
    expect(checkCard({ number: '4111111111111111', expMonth: 11, expYear: 2026, cvc: '123' }, NOW).expMonth).toBe(11);
    expect(refusal(() => checkCard({ number: '4111111111111111', expMonth: 10, expYear: 2026, cvc: '123' }, NOW))).toMatchObject({ param: 'exp_month' });
    expect(refusal(() => checkCard({ number: '4111111111111111', expMonth: 12, expYear: 2025, cvc: '123' }, NOW))).toMatchObject({ param: 'exp_year' });
    expect(refusal(() => checkCard({ number: '4111111111111111', expMonth: 13, expYear: 2030, cvc: '123' }, NOW))).toMatchObject({ param: 'exp_month' });
    expect(refusal(() => checkCard({ number: '4111111111111111', expMonth: 1, expYear: 30, cvc: '123' }, NOW))).toMatchObject({ param: 'exp_year' });
    expect(refusal(() => checkCard({ number: '4111111111111111', expMonth: 1, expYear: 2050, cvc: '123' }, NOW))).toMatchObject({ param: 'exp_year' });
  });

  it('the month turns on São Paulo time, not UTC', () => {
    // 02:00 UTC on 1 December is still 30 November, 23:00 in São Paulo.
    const lateNovember = new Date('2026-12-01T02:00:00Z');
    expect(saoPauloMonth(lateNovember)).toEqual({ year: 2026, month: 11 });
    expect(isExpired(11, 2026, lateNovember)).toBe(false);
    expect(isExpired(11, 2026, new Date('2026-12-01T03:00:00Z'))).toBe(true);
  });
});

import { assertPositiveCents, centsToReaisString, feeFor, formatBrl, reaisStringToCents } from './money';

describe('money', () => {
  it('formats cents as the API Pix reais string', () => {
    expect(centsToReaisString(1)).toBe('0.01');
    expect(centsToReaisString(1990)).toBe('19.90');
    expect(centsToReaisString(123456789)).toBe('1234567.89');
  });

  it('parses reais strings without floating point', () => {
    expect(reaisStringToCents('0.01')).toBe(1);
    expect(reaisStringToCents('19.9')).toBe(1990);
    expect(reaisStringToCents('1234567.89')).toBe(123456789);
    expect(reaisStringToCents('10')).toBe(1000);
    expect(reaisStringToCents('100.900')).toBe(10090);
    expect(reaisStringToCents('1234567890123.45')).toBe(123456789012345);
    for (const bad of ['1,00', '-1.00', '1.005', '1e3', ' 1.00', '', '.5', '1.']) expect(() => reaisStringToCents(bad)).toThrow(RangeError);
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => centsToReaisString(1.5)).toThrow(RangeError);
    expect(() => centsToReaisString(-1)).toThrow(RangeError);
    expect(() => assertPositiveCents(0, 'amount')).toThrow(RangeError);
    expect(() => assertPositiveCents(1, 'amount')).not.toThrow();
  });

  it('formats cents as pt-BR reais for people', () => {
    expect(formatBrl(0)).toBe('R$ 0,00');
    expect(formatBrl(5)).toBe('R$ 0,05');
    expect(formatBrl(1990)).toBe('R$ 19,90');
    expect(formatBrl(123456)).toBe('R$ 1.234,56');
    expect(formatBrl(100_000)).toBe('R$ 1.000,00');
    expect(formatBrl(123456789)).toBe('R$ 1.234.567,89');
    expect(formatBrl(100_000_000_000)).toBe('R$ 1.000.000.000,00');
    expect(formatBrl(-100)).toBe('-R$ 1,00');
  });

  it('prints what the pt-BR locale prints, byte for byte', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    for (const cents of [0, 1, 99, 100, 999, 1000, 99_999, 100_000, 1_234_567, 10_000_000_000, -250]) {
      expect(formatBrl(cents)).toBe(intl.format(cents / 100).replace(/\u00a0/g, ' '));
    }
  });

  it('rounds percentage fees half up', () => {
    expect(feeFor(5050, { percent_bps: 99, fixed: 0 })).toBe(50);
    expect(feeFor(50, { percent_bps: 99, fixed: 0 })).toBe(0);
    expect(() => feeFor(10.5, { percent_bps: 99, fixed: 0 })).toThrow();
  });
});

import { CARD_CHECKS_JS } from './card-checks.script';

// Evaluates the very text the frame page inlines.
interface Checks {
  cfLuhn(digits: string): boolean;
  cfBrand(digits: string): string | null;
  cfCheckNumber(value: string): string | null;
  cfParseExpiry(value: string, now?: Date): { month?: number; year?: number; error: string | null };
  cfCheckCvc(value: string, brand: string | null): string | null;
}
const checks = new Function(`${CARD_CHECKS_JS}; return { cfLuhn, cfBrand, cfCheckNumber, cfParseExpiry, cfCheckCvc };`)() as Checks;

describe('card checks of the card fields (browser code)', () => {
  it('Luhn accepts the test numbers and refuses one digit off', () => {
    for (const number of ['4242424242424242', '5555555555554444', '378282246310005', '4000000000000002', '6362970000457013']) expect(checks.cfLuhn(number)).toBe(true);
    expect(checks.cfLuhn('4242424242424241')).toBe(false);
    expect(checks.cfLuhn('')).toBe(false);
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'american-express'],
    ['36227206271667', 'diners-club'],
    ['6011111111111117', 'discover'],
    ['3566002020360505', 'jcb'],
    ['6362970000457013', 'elo'],
    ['5067230000000000', 'elo'],
    ['4389350000000000', 'elo'],
    ['6062825624254001', 'hipercard'],
    ['9999999999999999', null],
  ])('brand of %s is %s (Elo and Hipercard before Visa/Mastercard/Discover)', (number, brand) => {
    expect(checks.cfBrand(number)).toBe(brand);
  });

  it('number: spaces allowed; unknown, short and bad check digit each say what to do', () => {
    expect(checks.cfCheckNumber('4242 4242 4242 4242')).toBeNull();
    expect(checks.cfCheckNumber('')).toMatch(/Informe o número/);
    expect(checks.cfCheckNumber('9999 9999 9999 9999')).toMatch(/não reconhecido/);
    expect(checks.cfCheckNumber('4242 4242 4242')).toMatch(/incompleto/);
    expect(checks.cfCheckNumber('4242 4242 4242 4241')).toMatch(/inválido/);
  });

  it('expiry: MM/AA or MM/AAAA, this month still valid, past refused, absurd years refused', () => {
    const now = new Date(2026, 10, 25);
    expect(checks.cfParseExpiry('12/30', now)).toEqual({ month: 12, year: 2030, error: null });
    expect(checks.cfParseExpiry('11/2026', now)).toEqual({ month: 11, year: 2026, error: null });
    expect(checks.cfParseExpiry('10/26', now).error).toMatch(/vencido/);
    expect(checks.cfParseExpiry('13/30', now).error).toMatch(/Mês/);
    expect(checks.cfParseExpiry('12/60', now).error).toMatch(/Ano/);
    expect(checks.cfParseExpiry('1230x', now).error).toMatch(/MM\/AA/);
    expect(checks.cfParseExpiry('', now).error).toMatch(/Informe/);
  });

  it('security code: 3 digits, 4 for American Express', () => {
    expect(checks.cfCheckCvc('123', 'visa')).toBeNull();
    expect(checks.cfCheckCvc('1234', 'visa')).toMatch(/3 dígitos/);
    expect(checks.cfCheckCvc('1234', 'american-express')).toBeNull();
    expect(checks.cfCheckCvc('12a', 'visa')).toMatch(/3 dígitos/);
    expect(checks.cfCheckCvc('', 'visa')).toMatch(/Informe/);
  });
});

/**
 * Money is an integer number of cents everywhere. These helpers are the only places where a
 * percentage or a provider's reais string meets cents, each with its rounding rule stated.
 */

/** Fee of `amount` cents at `bps` basis points plus `fixed` cents, rounded half up to the cent. */
export function feeFor(amount: number, rule: { percent_bps: number; fixed: number }): number {
  assertCents(amount, 'amount');
  // amount ≤ 10^12 and bps ≤ 10^4 keep the product below 2^53, so integer math is exact.
  const percentPart = Math.floor((amount * rule.percent_bps + 5_000) / 10_000);
  return Math.min(amount, percentPart + rule.fixed);
}

/**
 * 1234 → "12.34": reais with exactly two decimals, the text every provider that speaks reais
 * takes (the Banco Central API Pix `valor`, Asaas's and Mercado Pago's JSON numbers written
 * verbatim). Built from the integer's digits; never through a float.
 */
export function centsToReaisString(cents: number): string {
  assertCents(cents, 'cents');
  const reais = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${reais}.${rest.toString().padStart(2, '0')}`;
}

/**
 * "12.34" → 1234, "12.3" → 1230, "12" → 1200, "12.300" → 1230. Parses the decimal text digit by
 * digit; never through a float. Zeros past the cents are accepted (a provider writing `100.900`
 * means 100.90); anything finer than a cent, a sign, an exponent, a comma or a space is refused,
 * so a value this cannot read exactly is never read approximately.
 */
export function reaisStringToCents(value: string): number {
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(value);
  const fraction = (match?.[2] ?? '').replace(/0+$/, '');
  if (!match || fraction.length > 2) throw new RangeError(`Not a reais amount: ${JSON.stringify(value)}`);
  return Number(match[1]) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * 1234 → "R$ 12,34", 123456 → "R$ 1.234,56": the one pt-BR display form of an amount, for
 * Portuguese messages, the payment page and operator tools. A plain space after "R$" (Intl writes
 * a no-break one); a negative amount reads "-R$ 1,00". Built from the integer's digits, never
 * through a float or the runtime's locale data, so every service prints the same bytes.
 */
export function formatBrl(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.trunc(cents));
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const centavos = (abs % 100).toString().padStart(2, '0');
  return `${negative ? '-' : ''}R$ ${reais},${centavos}`;
}

export function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer number of cents, got ${value}`);
  }
}

/** A charge or refund amount: at least one cent. */
export function assertPositiveCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer number of cents, got ${value}`);
  }
}

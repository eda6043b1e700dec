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

/** 1234 → "12.34" (the Banco Central API Pix `valor` format). */
export function centsToReaisString(cents: number): string {
  assertCents(cents, 'cents');
  const reais = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${reais}.${rest.toString().padStart(2, '0')}`;
}

/** "12.34" → 1234. Parses the decimal text digit by digit; never through a float. */
export function reaisStringToCents(value: string): number {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) throw new Error(`Not a reais amount: ${JSON.stringify(value)}`);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return Number(match[1]) * 100 + Number(fraction);
}

export function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer number of cents, got ${value}`);
  }
}

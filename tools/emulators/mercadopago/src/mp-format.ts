/**
 * Wire formats: amounts are JSON numbers in reais (`12.34`), dates ISO 8601 with milliseconds and
 * the Brazilian offset (`2025-03-10T11:02:11.482-03:00`), as Mercado Pago answers them.
 */

/**
 * A JSON number of reais → integer cents, without float arithmetic: `String(n)` is the shortest
 * decimal that reads back as `n`, which for the ≤ 15 significant digits of any real amount is the
 * literal the client wrote. More than two decimals, exponents or non-positive values → undefined.
 */
export function reaisToCents(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value));
  if (!match?.[1]) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/**
 * Integer cents → the JSON number of reais. `cents / 100` is the double nearest to the exact
 * decimal, and JSON.stringify prints the shortest decimal that reads back as it: for amounts below
 * 2^53 / 100 that is exactly the two-decimal amount (e.g. 199007 → 1990.07).
 */
export function centsToReais(cents: number): number {
  return cents / 100;
}

/** 199007 → "1990.07", by string arithmetic (for display). */
export function centsToText(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const BRT_OFFSET_MS = -3 * 60 * 60 * 1000;

/** `2025-03-10T11:02:11.482-03:00` (Brazil has had no daylight saving time since 2019). */
export function mpDate(at: Date): string {
  return `${new Date(at.getTime() + BRT_OFFSET_MS).toISOString().slice(0, -1)}-03:00`;
}

/** An ISO 8601 date-time with an explicit offset or `Z`; undefined when it is not one. */
export function parseMpDate(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/**
 * When a boleto falls due, the same for every provider (docs/decisions.md "Boleto and card"): the
 * due date is BOLETO_DUE_DAYS calendar days after today in America/Sao_Paulo, and the boleto's
 * `expires_at` is the end of that day there. Brazil has had no daylight saving time since 2019, so
 * São Paulo is UTC−03:00 all year and the arithmetic needs no time-zone database.
 */
export const BOLETO_DUE_DAYS = 3;
const SAO_PAULO_OFFSET_MS = -3 * 60 * 60 * 1000;

/** YYYY-MM-DD of the due date for a boleto issued at `now`. */
export function boletoDueDate(now: Date, days = BOLETO_DUE_DAYS): string {
  const local = new Date(now.getTime() + SAO_PAULO_OFFSET_MS);
  local.setUTCDate(local.getUTCDate() + days);
  return local.toISOString().slice(0, 10);
}

/** The last second of `dueDate` (YYYY-MM-DD) in São Paulo, as an instant. */
export function endOfDueDate(dueDate: string): Date {
  return new Date(`${dueDate}T23:59:59-03:00`);
}

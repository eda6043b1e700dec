/**
 * Brazilian business dates are São Paulo calendar days (America/Sao_Paulo, no DST since 2019):
 * the one place an instant becomes that `YYYY-MM-DD` (subscription cycles, payout daily limits).
 */
const SAO_PAULO_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The date of `instant` on São Paulo's clock, `YYYY-MM-DD`. */
export function saoPauloDate(instant: Date): string {
  return SAO_PAULO_DAY.format(instant);
}

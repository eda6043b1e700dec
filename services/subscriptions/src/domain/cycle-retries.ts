/**
 * Retries of a cycle whose payment failed on its due date (docs/subscriptions.md "Retries").
 *
 * `retry: true` (the default) is Banco Central's `PERMITE_3R_7D`: up to 3 new settlement attempts
 * within 7 calendar days after the due date, each asked with `POST /cobr/{txid}/retentativa/{data}`.
 * `retry: false` is `NAO_PERMITE`: the first failure fails the cycle.
 *
 * Retry k is due on the first business day on or after due date + 2k calendar days (and after the
 * previous retry), dropped when that is past the 7th day. Spacing them two days apart gives the
 * payer, whose bank notifies each attempt, time to add funds; the first is not the next day because
 * the payer's bank makes its last same-day attempt in the evening of the due date, so the failure
 * is known only then. Business days, as for due dates, so a retry never lands on a bank holiday.
 */
import { businessDayOnOrAfter } from './business-days';
import { addDays, type CalendarDate } from './calendar-date';

export type RetryPolicy = 'PERMITE_3R_7D' | 'NAO_PERMITE';

export const MAX_RETRIES = 3;
export const RETRY_WINDOW_DAYS = 7;
const RETRY_SPACING_DAYS = 2;

/** The Banco Central policy of a subscription's `retry` flag. */
export function retryPolicyOf(retry: boolean): RetryPolicy {
  return retry ? 'PERMITE_3R_7D' : 'NAO_PERMITE';
}

/** The dates of every retry a cycle due on `dueDate` may get, in order; empty without retries. */
export function retryDates(dueDate: CalendarDate, policy: RetryPolicy): CalendarDate[] {
  if (policy === 'NAO_PERMITE') return [];
  const last = addDays(dueDate, RETRY_WINDOW_DAYS);
  const dates: CalendarDate[] = [];
  let previous = dueDate;
  for (let k = 1; k <= MAX_RETRIES; k += 1) {
    const spaced = addDays(dueDate, RETRY_SPACING_DAYS * k);
    const afterPrevious = addDays(previous, 1);
    const date = businessDayOnOrAfter(spaced > afterPrevious ? spaced : afterPrevious);
    if (date > last) break;
    dates.push(date);
    previous = date;
  }
  return dates;
}

/**
 * When to try again after `failedAttempts` failed attempts (the due date's own attempt counts as
 * the first), or null when the cycle has none left and is failed.
 */
export function nextRetryDate(dueDate: CalendarDate, policy: RetryPolicy, failedAttempts: number): CalendarDate | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) throw new RangeError(`failedAttempts must be an integer ≥ 1, got ${failedAttempts}`);
  return retryDates(dueDate, policy)[failedAttempts - 1] ?? null;
}

/**
 * The retry to ask for after `failedAttempts` failed debits, seen on `today`: the policy's date, or
 * — when that day has already come (the failure was learned late) — the next business day, as long
 * as it stays within the 7 calendar days after the due date. Null when no retry is left.
 */
export function retryDateFrom(dueDate: CalendarDate, policy: RetryPolicy, failedAttempts: number, today: CalendarDate): CalendarDate | null {
  const planned = nextRetryDate(dueDate, policy, failedAttempts);
  if (planned === null) return null;
  if (planned > today) return planned;
  const next = businessDayOnOrAfter(addDays(today, 1));
  return next <= addDays(dueDate, RETRY_WINDOW_DAYS) ? next : null;
}

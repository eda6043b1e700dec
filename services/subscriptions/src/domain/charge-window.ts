/**
 * When a cycle's charge may be sent to the provider, and which due dates a merchant may choose in
 * `POST /subscriptions/{id}/charge`. Pix Automático requires the receiver to send each charge ahead
 * of its due date so the payer's bank can schedule it and show it in the app (the payer may refuse
 * it until the day before). The spec (§4, §8) sets "between 2 and 10 business days ahead".
 */
import { addBusinessDays, businessDayOnOrAfter, businessDaysBetween, isBusinessDay } from './business-days';
import { addDays, isCalendarDate, type CalendarDate } from './calendar-date';
import { accept, refuse, type Validated } from './input-error';

/** The spec's lead time of a charge, in business days before its due date. */
export const CHARGE_LEAD_BUSINESS_DAYS = { min: 2, max: 10 } as const;

/**
 * The scheduler's earliest send day, in calendar days before the due date. Banco Central's
 * published rule reads "10 to 2 calendar days" while the spec (and some PSPs) say business days;
 * 10 business days back is always 14 or more calendar days, so 10 calendar days is the stricter
 * bound and a charge sent inside the window holds under either reading.
 */
export const CHARGE_LEAD_CALENDAR_DAYS_MAX = 10;

/** An inclusive span of days. */
export interface DateRange {
  earliest: CalendarDate;
  latest: CalendarDate;
}

/**
 * The days on which the scheduler may send the charge of a cycle due on `dueDate`: from 10 calendar days before to 2 business days
 * before. Never empty: the longest run of non-business days is shorter than 8 days.
 */
export function chargeSendWindow(dueDate: CalendarDate): DateRange {
  return { earliest: addDays(dueDate, -CHARGE_LEAD_CALENDAR_DAYS_MAX), latest: addBusinessDays(dueDate, -CHARGE_LEAD_BUSINESS_DAYS.min) };
}

/** Where `today` stands against a window: too early to send, sendable, or past the last day. */
export function windowPosition(window: DateRange, today: CalendarDate): 'before' | 'open' | 'missed' {
  if (today < window.earliest) return 'before';
  return today > window.latest ? 'missed' : 'open';
}

/** The due dates a charge sent on `today` may carry: 2 to 10 business days ahead. */
export function chargeDueDateRange(today: CalendarDate): DateRange {
  return {
    earliest: addBusinessDays(today, CHARGE_LEAD_BUSINESS_DAYS.min),
    latest: addBusinessDays(today, CHARGE_LEAD_BUSINESS_DAYS.max),
  };
}

/**
 * Checks the merchant's `due_date` of `POST /subscriptions/{id}/charge` against `today` (São Paulo):
 * a business day 2 to 10 business days ahead. A non-business day is refused rather than moved, so
 * the cycle is due on exactly the day the merchant asked for; the message names the business day
 * it would have moved to.
 */
export function validateChargeDueDate(dueDate: string, today: CalendarDate): Validated<CalendarDate> {
  const range = chargeDueDateRange(today);
  const choose = `Escolha uma data útil entre ${range.earliest} e ${range.latest}.`;
  if (!isCalendarDate(dueDate)) {
    return refuse('parameter_invalid', 'due_date', `O campo due_date deve ser uma data no formato AAAA-MM-DD. ${choose}`);
  }
  if (!isBusinessDay(dueDate)) {
    const next = businessDayOnOrAfter(dueDate);
    return refuse('parameter_invalid', 'due_date', `O campo due_date (${dueDate}) não é dia útil (fim de semana ou feriado nacional); o próximo dia útil é ${next}. ${choose}`);
  }
  const ahead = businessDaysBetween(today, dueDate);
  if (ahead < CHARGE_LEAD_BUSINESS_DAYS.min || ahead > CHARGE_LEAD_BUSINESS_DAYS.max) {
    return refuse(
      'parameter_invalid',
      'due_date',
      `O campo due_date deve estar entre ${CHARGE_LEAD_BUSINESS_DAYS.min} e ${CHARGE_LEAD_BUSINESS_DAYS.max} dias úteis à frente (${dueDate} está a ${ahead}). ${choose}`,
    );
  }
  return accept(dueDate);
}

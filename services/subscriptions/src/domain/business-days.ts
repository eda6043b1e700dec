/**
 * Brazilian banking business days, the calendar of Pix Automático's charge window and of
 * `ajusteDiaUtil` (a due date on a non-business day moves to the next business day).
 *
 * Decision (docs/subscriptions.md "Business days"): a business day is a Monday to Friday that is
 * not a national holiday of type `public` nor `bank` in `date-holidays` (country BR, no state).
 * `bank` adds the days banks close nationwide although they are no federal holiday: Carnaval
 * Monday and Tuesday and Corpus Christi, as in the national banking calendar. `optional` days
 * (Carnaval Saturday, Ash Wednesday until noon, the afternoons of 24 and 31 December) and
 * `observance` days (Mother's Day, …) are business days: banks open on them. State and municipal
 * holidays are ignored because Pix Automático's deadlines follow the national calendar.
 */
import Holidays from 'date-holidays';
import { addDays, dayOfWeek, yearOf, type CalendarDate } from './calendar-date';

const NATIONAL_BANK_HOLIDAYS = new Holidays('BR', { types: ['public', 'bank'] });
const holidaysByYear = new Map<number, ReadonlySet<CalendarDate>>();

/** The year's national banking holidays, computed once per year (the rules are fixed per release). */
function holidaysOf(year: number): ReadonlySet<CalendarDate> {
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    // `date` is local to Brazil ("2026-04-03 00:00:00"): its first ten characters are the day,
    // with no Date object and so no host time zone involved.
    holidays = new Set(NATIONAL_BANK_HOLIDAYS.getHolidays(year).map((holiday) => holiday.date.slice(0, 10)));
    holidaysByYear.set(year, holidays);
  }
  return holidays;
}

export function isNationalHoliday(date: CalendarDate): boolean {
  return holidaysOf(yearOf(date)).has(date);
}

export function isBusinessDay(date: CalendarDate): boolean {
  const weekday = dayOfWeek(date);
  return weekday !== 0 && weekday !== 6 && !isNationalHoliday(date);
}

/** `date` itself when it is a business day, else the next one (Banco Central's `ajusteDiaUtil`). */
export function businessDayOnOrAfter(date: CalendarDate): CalendarDate {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/**
 * The business day `count` business days after `date` (before it when negative); `date` itself is
 * not counted and need not be a business day. `count` 0 returns `date` unchanged.
 */
export function addBusinessDays(date: CalendarDate, count: number): CalendarDate {
  const step = count < 0 ? -1 : 1;
  let day = date;
  for (let left = Math.abs(count); left > 0; ) {
    day = addDays(day, step);
    if (isBusinessDay(day)) left -= 1;
  }
  return day;
}

/**
 * Business days in the span after `from` up to and including `to`, negative when `to` is earlier:
 * for n ≥ 0 the inverse of `addBusinessDays`: `businessDaysBetween(d, addBusinessDays(d, n)) === n`.
 */
export function businessDaysBetween(from: CalendarDate, to: CalendarDate): number {
  if (to < from) return -businessDaysBetween(to, from);
  let count = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (isBusinessDay(day)) count += 1;
  return count;
}

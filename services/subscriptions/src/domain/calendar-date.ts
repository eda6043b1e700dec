import { saoPauloDate as platformSaoPauloDate } from '@orquestra/platform';
/**
 * Calendar dates as `YYYY-MM-DD` strings: the shape of the API's start_date, end_date and due_date
 * and of Banco Central's `dataDeVencimento`. A date here names a day in São Paulo, never an instant,
 * so the arithmetic runs on whole days counted in UTC, where no daylight-saving shift or host time
 * zone can move a day. Strings of this shape compare correctly with `<` and `>`.
 */

/** A day as `YYYY-MM-DD`, checked by `isCalendarDate` before it enters the domain. */
export type CalendarDate = string;

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** True for a `YYYY-MM-DD` string naming a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): value is CalendarDate {
  const match = SHAPE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days since 1970-01-01 of a valid date (the caller checked it). */
function dayNumber(date: CalendarDate): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

function fromDayNumber(days: number): CalendarDate {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** Number of days of a month (1-12): 28 or 29 for February by the Gregorian leap rule. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromDayNumber(dayNumber(date) + days);
}

/** Whole days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return dayNumber(to) - dayNumber(from);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: CalendarDate): number {
  return (dayNumber(date) + 4) % 7; // 1970-01-01 was a Thursday
}

/** The date of `instant` on São Paulo's clock (the platform's one definition). */
export const saoPauloDate: (instant: Date) => CalendarDate = platformSaoPauloDate;

export function yearOf(date: CalendarDate): number {
  return Number(date.slice(0, 4));
}

/**
 * The calendar of Pix Automático as the emulators apply it (psp-apis.md §8): dates are São Paulo
 * calendar days `YYYY-MM-DD`; a cycle falls every week, month, quarter, half-year or year after the
 * start date (month ends clamped: a 31st start charges on the 30th in April); a cycle's charge is
 * sent 2 to 10 days before its due date, and business days are Monday to Friday except Brazilian
 * national banking holidays (date-holidays, types "public" and "bank": Carnaval and Corpus Christi
 * close the banks), the calendar the subscriptions service schedules by (docs/subscriptions.md).
 *
 * The PSPs differ on whether those 2–10 days are calendar or business days (§8); the emulators
 * accept both readings: from 2 calendar days to 10 business days ahead.
 */
import Holidays from 'date-holidays';

export type Frequency = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUALLY' | 'ANNUALLY';

/** America/Sao_Paulo has kept UTC−03:00 all year since daylight saving ended in 2019. */
const SAO_PAULO_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 86_400_000;
const MONTHS: Record<Exclude<Frequency, 'WEEKLY'>, number> = { MONTHLY: 1, QUARTERLY: 3, SEMIANNUALLY: 6, ANNUALLY: 12 };
const holidays = new Holidays('BR', { types: ['public', 'bank'] });

/** `YYYY-MM-DD` in São Paulo. */
export function saoPauloDate(at: Date): string {
  return new Date(at.getTime() - SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);
}

/** A real calendar date `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

export function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const found = holidays.isHoliday(new Date(`${date}T12:00:00-03:00`));
  return !(found && found.some((h) => h.type === 'public' || h.type === 'bank'));
}

/** `date` itself when a business day, else the next one (ajusteDiaUtil). */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

export function addBusinessDays(date: string, count: number): string {
  let day = date;
  for (let left = count; left > 0; ) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) left -= 1;
  }
  return day;
}

/** The due date of cycle `index` (0 is the start date). */
export function cycleDate(start: string, frequency: Frequency, index: number): string {
  return frequency === 'WEEKLY' ? addDays(start, 7 * index) : addMonths(start, MONTHS[frequency] * index);
}

/** Which cycle `date` belongs to: the last one starting on or before it (-1 before the start). */
export function cycleIndexOf(start: string, frequency: Frequency, date: string): number {
  if (date < start) return -1;
  let index = 0;
  while (cycleDate(start, frequency, index + 1) <= date) index += 1;
  return index;
}

/** Whether a charge due on `dueDate` may be sent on `today`: 2 calendar days to 10 business days ahead. */
export function inSendingWindow(today: string, dueDate: string): boolean {
  return dueDate >= addDays(today, 2) && dueDate <= addBusinessDays(today, 10);
}

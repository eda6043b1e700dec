/**
 * The due dates of a subscription's cycles (docs/subscriptions.md "Cycle schedule").
 *
 * - Cycle n (1-based) is anchored on start_date plus n−1 periods: 7 days, or 1, 3, 6 or 12 months.
 *   Month periods keep the start day and clamp it to shorter months, always from start_date and
 *   never from the previous cycle, so a subscription starting on Jan 31 is due Feb 28 (29 in leap
 *   years), Mar 31, Apr 30, … and never drifts to the 28th.
 * - The due date is the anchor moved to the next business day when the anchor is not one, as
 *   Banco Central's `ajusteDiaUtil` (true by default) does with a charge's due date; the anchor of
 *   the next cycle does not move with it.
 * - end_date bounds the anchors: the last cycle is the last one anchored on or before end_date
 *   (its due date may fall after end_date when the anchor is not a business day).
 */
import { businessDayOnOrAfter } from './business-days';
import { addDays, daysBetween, daysInMonth, type CalendarDate } from './calendar-date';

export const FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'semiannually', 'annually'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export function isFrequency(value: string): value is Frequency {
  return (FREQUENCIES as readonly string[]).includes(value);
}

export interface CycleSchedule {
  start_date: CalendarDate;
  frequency: Frequency;
  /** Inclusive bound of the anchors; null runs until canceled. */
  end_date: CalendarDate | null;
}

export interface Cycle {
  /** 1 for the cycle anchored on start_date (the first payment, made at approval). */
  sequence: number;
  /** start_date plus sequence−1 periods, before any business-day move. */
  anchor_date: CalendarDate;
  /** The anchor, or the next business day when the anchor is not one. */
  due_date: CalendarDate;
}

/** Months per period, or null for the 7-day weekly period (a Record: a new frequency fails to compile until it has a period). */
const MONTHS_PER_PERIOD: Readonly<Record<Frequency, number | null>> = { weekly: null, monthly: 1, quarterly: 3, semiannually: 6, annually: 12 };

function addMonthsClamped(start: CalendarDate, months: number): CalendarDate {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const targetDay = Math.min(day, daysInMonth(targetYear, targetMonth));
  return `${String(targetYear).padStart(4, '0')}-${String(targetMonth).padStart(2, '0')}-${String(targetDay).padStart(2, '0')}`;
}

function anchorOf(schedule: CycleSchedule, sequence: number): CalendarDate {
  const months = MONTHS_PER_PERIOD[schedule.frequency];
  return months === null ? addDays(schedule.start_date, 7 * (sequence - 1)) : addMonthsClamped(schedule.start_date, months * (sequence - 1));
}

/** Cycle `sequence` (≥ 1), or null when its anchor falls after end_date. */
export function cycleAt(schedule: CycleSchedule, sequence: number): Cycle | null {
  if (!Number.isInteger(sequence) || sequence < 1) throw new RangeError(`cycle sequence must be an integer ≥ 1, got ${sequence}`);
  const anchor_date = anchorOf(schedule, sequence);
  if (schedule.end_date !== null && anchor_date > schedule.end_date) return null;
  return { sequence, anchor_date, due_date: businessDayOnOrAfter(anchor_date) };
}

/**
 * The first cycle due after `date` (its due_date later than `date`), or null when the schedule
 * ends first. Due dates strictly increase with the sequence (a period is longer than any run of
 * non-business days), so the answer is found by stepping forward from a cycle known to be earlier.
 */
export function nextCycleAfter(schedule: CycleSchedule, date: CalendarDate): Cycle | null {
  let sequence = Math.max(1, periodsBefore(schedule, date));
  for (let cycle = cycleAt(schedule, sequence); cycle !== null; cycle = cycleAt(schedule, ++sequence)) {
    if (cycle.due_date > date) return cycle;
  }
  return null;
}

/**
 * A cycle sequence whose due date is on or before `date` (or 1): whole periods between start_date
 * and `date`, counted in calendar months (ignoring the day) or in weeks. Cycle p is anchored at
 * least one period before `date`'s month or week, more than any business-day move.
 */
function periodsBefore(schedule: CycleSchedule, date: CalendarDate): number {
  if (date < schedule.start_date) return 1;
  const months = MONTHS_PER_PERIOD[schedule.frequency];
  if (months === null) return Math.floor(daysBetween(schedule.start_date, date) / 7);
  const [startYear, startMonth] = schedule.start_date.split('-').map(Number) as [number, number];
  const [year, month] = date.split('-').map(Number) as [number, number];
  return Math.floor((year * 12 + month - (startYear * 12 + startMonth)) / months);
}

/**
 * The cycle whose period holds `date`: the last one anchored on or before it (a charge's due date
 * belongs to that cycle, as Banco Central counts one charge per cycle). Null before start_date or
 * when that cycle lies after end_date.
 *
 * @example
 * cycleContaining({ start_date: '2026-01-31', frequency: 'monthly', end_date: null }, '2026-03-15')
 * // → { sequence: 2, anchor_date: '2026-02-28', due_date: '2026-03-02' }
 */
export function cycleContaining(schedule: CycleSchedule, date: CalendarDate): Cycle | null {
  if (date < schedule.start_date) return null;
  let sequence = Math.max(1, periodsBefore(schedule, date));
  while (sequence > 1 && anchorOf(schedule, sequence) > date) sequence -= 1;
  while (anchorOf(schedule, sequence + 1) <= date) sequence += 1;
  return cycleAt(schedule, sequence);
}

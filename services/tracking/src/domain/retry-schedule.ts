/**
 * When a send the tool did not take is tried again (spec §4: after 1, 5 and 30 minutes, then 2, 6,
 * 12 and 24 hours). `scheduleMs[i]` is the wait after the (i+1)-th failed attempt.
 */

/**
 * The instant of the next attempt after `attemptsMade` attempts (≥ 1) failed, counted from `now`
 * (the last failure); null once the schedule is exhausted and the send has failed for good.
 */
export function nextAttemptAt(attemptsMade: number, scheduleMs: readonly number[], now: Date): Date | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError('attemptsMade counts the attempts already made (≥ 1)');
  const wait = scheduleMs[attemptsMade - 1];
  return wait === undefined ? null : new Date(now.getTime() + wait);
}

/** How many attempts a send gets in all: the first plus one per scheduled wait. */
export const maxAttempts = (scheduleMs: readonly number[]): number => scheduleMs.length + 1;

/**
 * When a send the tool did not take is tried again (spec §4: after 1, 5 and 30 minutes, then 2, 6,
 * 12 and 24 hours). `scheduleMs[i]` is the wait after the (i+1)-th failed attempt.
 */

/** The most a wait is stretched: up to 10 % later, never earlier than the schedule says. */
export const RETRY_JITTER = 0.1;

/**
 * The instant of the next attempt after `attemptsMade` attempts (≥ 1) failed, counted from `now`
 * (the last failure); null once the schedule is exhausted and the send has failed for good. The
 * wait is stretched by a random 0–10 % (`random` in [0, 1)), so the sends a tool outage failed at
 * once do not all come back at the same instant.
 */
export function nextAttemptAt(attemptsMade: number, scheduleMs: readonly number[], now: Date, random: () => number = Math.random): Date | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError('attemptsMade counts the attempts already made (≥ 1)');
  const wait = scheduleMs[attemptsMade - 1];
  return wait === undefined ? null : new Date(now.getTime() + Math.round(wait * (1 + RETRY_JITTER * random())));
}

/** How many attempts a send gets in all: the first plus one per scheduled wait. */
export const maxAttempts = (scheduleMs: readonly number[]): number => scheduleMs.length + 1;

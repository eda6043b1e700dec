/**
 * When a failed delivery is tried again (docs/events.md "Retries"). Exponential backoff with
 * jitter: the n-th retry waits base × 2^(n−1), capped at maxDelay, times a random factor in
 * [0.8, 1.2) so that endpoints coming back from an outage are not hit by every retry at once. With
 * the defaults (30 s base, 6 h cap) the waits are ~30 s, 1 min, 2, 4, 8, 16, 32 min, 1 h 4 min,
 * 2 h 8 min, 4 h 16 min, then every ~6 h, until 3 days after the first attempt.
 */
export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  /** Retries stop once this long has passed since the delivery's first attempt. */
  windowMs: number;
}

/** The wait after the `failedAttempts`-th failed attempt (1 = the first attempt failed). */
export function retryDelayMs(failedAttempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(failedAttempts - 1, 30));
  const base = Math.min(policy.baseMs * 2 ** exponent, policy.maxDelayMs);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * When to try next after a failure, or null to give up. A `Retry-After` from the receiver is
 * honoured as a minimum wait (bounded by maxDelay, so a receiver cannot park its events for weeks).
 */
export function nextAttemptAt(options: {
  failedAttempts: number;
  windowStart: Date;
  now: Date;
  policy: RetryPolicy;
  retryAfterMs?: number | null;
  random?: () => number;
}): Date | null {
  const { policy, now } = options;
  let delay = retryDelayMs(options.failedAttempts, policy, options.random);
  if (options.retryAfterMs && options.retryAfterMs > delay) delay = Math.min(options.retryAfterMs, policy.maxDelayMs);
  const next = new Date(now.getTime() + delay);
  return next.getTime() - options.windowStart.getTime() > policy.windowMs ? null : next;
}

/** Retry-After as seconds (`120`) or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date = new Date()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}

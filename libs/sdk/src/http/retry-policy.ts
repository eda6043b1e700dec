// When and how long to wait before trying a request again.
//
// A request is retried only when repeating it cannot do something twice: GET and DELETE always
// (reads, and deleting twice deletes once), POST only when it carries an Idempotency-Key (the API
// answers the first result for a repeated key instead of acting again). Other POSTs (cancel, sync,
// simulate…) are never retried: the caller decides.
//
// What is retried: no response at all (connection refused or reset, timeout), 429 (throttled) and
// every 5xx (server or provider trouble; with the same key the API never charges twice). 4xx other
// than 429 are the caller's to fix, and so are never retried.

export interface RetrySettings {
  /** Retries after the first try (0 disables retries). */
  maxRetries: number;
  /** Base of the exponential backoff. */
  initialDelayMs: number;
  /** Ceiling of one backoff wait. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is raised at once. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** True when the request may be sent again without risk of doing it twice. */
export function isReplaySafe(method: string, hasIdempotencyKey: boolean): boolean {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' || upper === 'DELETE' || upper === 'PUT' || (upper === 'POST' && hasIdempotencyKey);
}

/** True for the answers worth another try: 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Milliseconds of Retry-After (delta-seconds or an HTTP date), or undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * Exponential backoff with "equal jitter": half of the capped exponential step is fixed, the
 * other half random, so many clients hit by one outage spread their retries instead of coming
 * back together, and no wait is close to zero.
 */
export function backoffDelayMs(retryNumber: number, settings: RetrySettings, random: () => number = Math.random): number {
  const step = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** Math.max(0, retryNumber - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * How long to wait before retry number `retryNumber` (1-based): the server's Retry-After when it
 * sent one (never less than it asked), else the backoff. Undefined means "do not retry".
 */
export function retryDelayMs(retryNumber: number, retryAfter: string | null, settings: RetrySettings, random?: () => number): number | undefined {
  if (retryNumber > settings.maxRetries) return undefined;
  const asked = parseRetryAfter(retryAfter);
  if (asked !== undefined) return asked > settings.maxRetryAfterMs ? undefined : asked;
  return backoffDelayMs(retryNumber, settings, random);
}

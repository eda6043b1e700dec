import { DEFAULT_RETRY_SETTINGS, backoffDelayMs, isReplaySafe, isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry-policy';

describe('retry policy', () => {
  it('replays reads always and POSTs only with an Idempotency-Key', () => {
    expect(isReplaySafe('GET', false)).toBe(true);
    expect(isReplaySafe('DELETE', false)).toBe(true);
    expect(isReplaySafe('POST', true)).toBe(true);
    expect(isReplaySafe('POST', false)).toBe(false);
    expect(isReplaySafe('PATCH', false)).toBe(false);
  });

  it('retries 429 and 5xx, nothing else', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });

  it('backs off exponentially with jitter inside [step/2, step], capped', () => {
    const s = { ...DEFAULT_RETRY_SETTINGS, initialDelayMs: 100, maxDelayMs: 1000 };
    expect([backoffDelayMs(1, s, () => 0), backoffDelayMs(1, s, () => 1)]).toEqual([50, 100]);
    expect([backoffDelayMs(2, s, () => 0), backoffDelayMs(2, s, () => 1)]).toEqual([100, 200]);
    expect([backoffDelayMs(3, s, () => 0), backoffDelayMs(3, s, () => 1)]).toEqual([200, 400]);
    expect([backoffDelayMs(9, s, () => 0), backoffDelayMs(9, s, () => 1)]).toEqual([500, 1000]);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelayMs(2, s)));
    expect(spread.size).toBeGreaterThan(10);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000 + 4_000).toUTCString(), 10_000)).toBe(4000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('waits what Retry-After asks, gives up past maxRetries or a too-long Retry-After', () => {
    const s = { ...DEFAULT_RETRY_SETTINGS, maxRetries: 2, maxRetryAfterMs: 10_000 };
    expect(retryDelayMs(1, '7', s)).toBe(7000);
    expect(retryDelayMs(1, '11', s)).toBeUndefined();
    expect(retryDelayMs(3, null, s)).toBeUndefined();
    expect(retryDelayMs(2, null, s, () => 0)).toBe(500);
  });
});

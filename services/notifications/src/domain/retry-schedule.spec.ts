import { nextAttemptAt, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry-schedule';

const policy: RetryPolicy = { baseMs: 30_000, maxDelayMs: 6 * 3_600_000, windowMs: 3 * 86_400_000 };
const middle = () => 0.5; // jitter factor exactly 1.0

describe('retry schedule', () => {
  it('doubles from 30 s up to the 6 h cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, policy, middle))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(11, policy, middle)).toBe(6 * 3_600_000);
    expect(retryDelayMs(40, policy, middle)).toBe(6 * 3_600_000);
  });

  it('jitters within ±20 %', () => {
    expect(retryDelayMs(1, policy, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, policy, () => 0.99)).toBe(35_880);
  });

  it('keeps retrying for 3 days after the first attempt and then gives up', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    let now = start;
    let failed = 0;
    const waits: number[] = [];
    for (;;) {
      failed += 1;
      const next = nextAttemptAt({ failedAttempts: failed, windowStart: start, now, policy, random: middle });
      if (!next) break;
      waits.push(next.getTime() - now.getTime());
      now = next;
    }
    expect(now.getTime() - start.getTime()).toBeLessThanOrEqual(policy.windowMs);
    expect(now.getTime() - start.getTime()).toBeGreaterThan(policy.windowMs - policy.maxDelayMs);
    expect(failed).toBeGreaterThan(15);
    expect(failed).toBeLessThan(25);
    expect(waits.slice(0, 3)).toEqual([30_000, 60_000, 120_000]);
  });

  it('honours Retry-After as a minimum, bounded by the cap', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const at = (retryAfterMs: number) => nextAttemptAt({ failedAttempts: 1, windowStart: now, now, policy, retryAfterMs, random: middle })!.getTime() - now.getTime();
    expect(at(120_000)).toBe(120_000);
    expect(at(1_000)).toBe(30_000);
    expect(at(30 * 86_400_000)).toBe(policy.maxDelayMs);
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('depois', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

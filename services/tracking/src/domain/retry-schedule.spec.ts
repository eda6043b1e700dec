import { maxAttempts, nextAttemptAt } from './retry-schedule';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('nextAttemptAt', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  // The spec's schedule (config.ts DEFAULT_DELIVERY_RETRY_SCHEDULE_MS; config is not imported: it reads the environment).
  const schedule = [1 * MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];

  it.each([
    [1, '2026-03-10T12:01:00.000Z'],
    [2, '2026-03-10T12:05:00.000Z'],
    [3, '2026-03-10T12:30:00.000Z'],
    [4, '2026-03-10T14:00:00.000Z'],
    [5, '2026-03-10T18:00:00.000Z'],
    [6, '2026-03-11T00:00:00.000Z'],
    [7, '2026-03-11T12:00:00.000Z'],
  ])('after %i failed attempt(s) → %s (without jitter)', (attempts, at) => {
    expect(nextAttemptAt(attempts, schedule, now, () => 0)?.toISOString()).toBe(at);
  });

  it('stretches each wait by up to 10 %, never shortens it', () => {
    expect(nextAttemptAt(1, schedule, now, () => 0.999)!.getTime() - now.getTime()).toBe(Math.round(MIN * 1.0999));
    expect(nextAttemptAt(7, schedule, now, () => 0.5)!.getTime() - now.getTime()).toBe(24 * HOUR * 1.05);
    for (let i = 0; i < 50; i++) {
      const wait = nextAttemptAt(3, schedule, now)!.getTime() - now.getTime();
      expect(wait).toBeGreaterThanOrEqual(30 * MIN);
      expect(wait).toBeLessThanOrEqual(33 * MIN);
    }
  });

  it('null once exhausted (8 attempts in all)', () => {
    expect(nextAttemptAt(8, schedule, now)).toBeNull();
    expect(maxAttempts(schedule)).toBe(8);
  });

  it('refuses a count of attempts below 1', () => {
    expect(() => nextAttemptAt(0, schedule, now)).toThrow(RangeError);
  });
});

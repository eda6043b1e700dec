import { retryAfterSeconds, signInCounters } from './sign-in-limit';

describe('sign-in rate limit counters', () => {
  const limits = { windowMs: 15 * 60_000, maxPerEmail: 10, maxPerIp: 100 };

  it('charge the IP first, then the e-mail, in fixed windows', () => {
    const now = Date.parse('2026-11-28T10:07:00Z');
    const start = Date.parse('2026-11-28T10:00:00Z');
    expect(signInCounters('dono@loja.com', '10.0.0.1', now, limits)).toEqual([
      { id: `ip:10.0.0.1:${start}`, max: 100, resetsAt: start + 15 * 60_000 },
      { id: `email:dono@loja.com:${start}`, max: 10, resetsAt: start + 15 * 60_000 },
    ]);
    expect(signInCounters('dono@loja.com', '', now, limits)).toHaveLength(1);
  });

  it('tell the seconds left in the window, at least one', () => {
    expect(retryAfterSeconds(10_000, 1_500)).toBe(9);
    expect(retryAfterSeconds(10_000, 10_000)).toBe(1);
  });
});

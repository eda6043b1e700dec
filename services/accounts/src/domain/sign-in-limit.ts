/** The sign-in rate limit's settings (config SIGN_IN_*). */
export interface SignInLimits {
  windowMs: number;
  maxPerEmail: number;
  maxPerIp: number;
}

/**
 * The counters one attempt is charged to, in order: the IP's first (a sprayer of many e-mails
 * from one address is stopped there without touching the e-mails' counters), then the e-mail's
 * (a guesser of one owner's password from many addresses). Fixed windows: each counter lives
 * until its window ends, so Retry-After is the time left in it.
 */
export function signInCounters(email: string, ip: string, now: number, limits: SignInLimits): Array<{ id: string; max: number; resetsAt: number }> {
  const start = now - (now % limits.windowMs);
  const resetsAt = start + limits.windowMs;
  const counters = [];
  if (ip) counters.push({ id: `ip:${ip}:${start}`, max: limits.maxPerIp, resetsAt });
  counters.push({ id: `email:${email}:${start}`, max: limits.maxPerEmail, resetsAt });
  return counters;
}

export function retryAfterSeconds(resetsAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetsAt - now) / 1000));
}

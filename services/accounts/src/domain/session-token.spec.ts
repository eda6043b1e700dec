import { newSessionToken, sessionExpiry, sessionIdOf, sessionIsLive } from './session-token';

describe('owner session tokens', () => {
  it('are 32 random bytes (base64url) stored only as their SHA-256', () => {
    const token = newSessionToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newSessionToken()).not.toBe(token);
    expect(sessionIdOf(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdOf(token)).toBe(sessionIdOf(token));
    expect(sessionIdOf(token)).not.toContain(token);
  });

  it('refuse text that cannot be a token without hashing it', () => {
    expect(sessionIdOf('')).toBeUndefined();
    expect(sessionIdOf('abc')).toBeUndefined();
    expect(sessionIdOf(`${newSessionToken()}x`)).toBeUndefined();
  });

  it('expire a fixed time after sign-in, however busy, and die with a newer owner epoch', () => {
    const signedIn = new Date('2026-11-28T10:00:00Z');
    const expires_at = sessionExpiry(signedIn, 12);
    expect(expires_at.toISOString()).toBe('2026-11-28T22:00:00.000Z');
    const session = { expires_at, epoch: 3 };
    expect(sessionIsLive(session, 3, new Date('2026-11-28T21:59:59Z'))).toBe(true);
    expect(sessionIsLive(session, 3, new Date('2026-11-28T22:00:00Z'))).toBe(false);
    expect(sessionIsLive(session, 4, new Date('2026-11-28T12:00:00Z'))).toBe(false);
  });
});

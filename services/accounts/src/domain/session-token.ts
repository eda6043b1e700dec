import { createHash, randomBytes } from 'node:crypto';

/** A new session token: 32 random bytes, base64url (43 characters). Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The stored id of a token, or undefined when the text cannot be a token (no store read then). */
export function sessionIdOf(token: string): string | undefined {
  return TOKEN_SHAPE.test(token) ? createHash('sha256').update(token).digest('hex') : undefined;
}

/**
 * Sessions have a fixed lifetime from sign-in (not sliding): a stolen cookie dies on schedule
 * however busy it is kept, and a request never costs a write to extend it.
 */
export function sessionExpiry(signedInAt: Date, ttlHours: number): Date {
  return new Date(signedInAt.getTime() + ttlHours * 3_600_000);
}

/** Whether a session still opens the dashboard at `now`: not expired and of the owner's current epoch. */
export function sessionIsLive(session: { expires_at: Date; epoch: number }, ownerEpoch: number, now: Date): boolean {
  return session.expires_at.getTime() > now.getTime() && session.epoch === ownerEpoch;
}

import { createHash, randomBytes } from 'node:crypto';
import type { ModeName } from '@orquestra/contracts';

export type KeyKindName = 'full' | 'restricted';

const KEY_PATTERN = /^svc_(test|live)_([A-Za-z0-9_-]{32})$/;

/**
 * A new API key secret: `svc_<mode>_` + 32 characters of base64url (192 random bits).
 * Shown once at creation; only its hash is stored.
 */
export function generateKeySecret(mode: ModeName): string {
  return `svc_${mode}_${randomBytes(24).toString('base64url')}`;
}

/** The mode a key claims by its prefix, or undefined when the text is not a key at all. */
export function parseKeySecret(secret: string): { mode: ModeName } | undefined {
  const match = KEY_PATTERN.exec(secret);
  return match ? { mode: match[1] as ModeName } : undefined;
}

/**
 * SHA-256 of the secret. A slow password hash is unnecessary: keys carry 192 random bits, so the
 * hash cannot be brute-forced, and a fast hash keeps key checks cheap on every request.
 */
export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A key's last use is kept to the minute: a look-up writes it only when it is a minute old or more. */
export const KEY_LAST_USED_RESOLUTION_MS = 60_000;

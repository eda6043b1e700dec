import { randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` + 32 random bytes in base64url (43 characters). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export interface SecretValidity {
  created_at: Date;
  /** null while it is the current secret; set when a rotation replaced it. */
  expires_at: Date | null;
}

/** The secrets that still sign deliveries at `now`, newest first. */
export function signingSecrets<T extends SecretValidity>(secrets: readonly T[], now: Date = new Date()): T[] {
  return secrets
    .filter((secret) => secret.expires_at === null || secret.expires_at.getTime() > now.getTime())
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
}

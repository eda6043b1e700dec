import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30-second steps. */
export const TOTP_ISSUER = 'Orquestra';

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUrl(secret: string, email: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

/** The current code (tests and the seed's tooling). */
export function totpCode(secret: string, epochSeconds?: number): string {
  return generateSync(epochSeconds === undefined ? { secret } : { secret, epoch: epochSeconds });
}

/**
 * The time step a code proves, or undefined. One step either side is accepted (clock drift); the
 * caller refuses a step not after the last one accepted, so a code is never used twice.
 */
export function verifyTotp(secret: string, code: string, epochSeconds?: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = verifySync({ secret, token: code, epochTolerance: 30, ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }) });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

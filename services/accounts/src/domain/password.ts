import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { AppError } from '@orquestra/platform';

/**
 * argon2id with OWASP's first recommended setting (Password Storage Cheat Sheet): 19 MiB of
 * memory, 2 passes, 1 lane. About 30 ms on one core here: cheap for one sign-in, ruinous for a
 * guesser with the stored hashes. The parameters travel inside the PHC string, so raising them
 * later still verifies old hashes.
 */
// `Algorithm` is a const enum (not emitted by per-file compilers): 2 is Argon2id.
export const PASSWORD_KDF = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** Refuses a password too short to resist guessing, or too long to hash cheaply. */
export function checkNewPassword(password: string): string {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new AppError('parameter_invalid', {
      param: 'password',
      message: `A senha (password) deve ter de ${PASSWORD_MIN_LENGTH} a ${PASSWORD_MAX_LENGTH} caracteres.`,
    });
  }
  return password;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_KDF);
}

/** False for a wrong password or a malformed hash; never throws for a mismatch. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

let dummy: Promise<string> | undefined;
/**
 * Verifies against a hash of nothing, so a sign-in with an unknown e-mail costs the same time as
 * one with a wrong password and does not tell which e-mails have owners.
 */
export async function spendVerifyTime(password: string): Promise<void> {
  dummy ??= hashPassword('orquestra: no such owner');
  await verifyPassword(await dummy, password);
}

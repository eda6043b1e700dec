/** Identifiers shaped like the ones Woovi returns (see the examples in Woovi's webhook docs). */
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';

/** Placeholder ISPB of the payer's bank in emulated endToEndIds (not a real participant's). */
const PAYER_ISPB = '99999999';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Relay global id, as Woovi's `globalID`: base64 of `<Type>:<24 hex>`. */
export function newGlobalId(type: 'Charge' | 'Webhook'): string {
  return Buffer.from(`${type}:${randomBytes(12).toString('hex')}`).toString('base64');
}

/** `transactionID` / `identifier`: 32 hex characters. */
export function newTransactionId(): string {
  return randomBytes(16).toString('hex');
}

export function newPaymentLinkId(): string {
  return randomUUID();
}

/** `E` + ISPB (8) + `yyyyMMddHHmm` (UTC) + 11 alphanumerics: the 32-character Pix EndToEndId. */
export function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  let tail = '';
  for (let i = 0; i < 11; i += 1) tail += ALNUM[randomInt(ALNUM.length)];
  return `E${PAYER_ISPB}${stamp}${tail}`;
}

/**
 * The emulator's non-secret name for an account: the AppID itself is the credential, so stats,
 * logs and fault scopes use this digest instead.
 */
export function accountIdFor(appId: string): string {
  return `acc_${createHash('sha256').update(`woovi-emulator:${appId}`).digest('hex').slice(0, 16)}`;
}

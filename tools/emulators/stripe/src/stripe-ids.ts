/** Identifiers shaped like Stripe's: `<prefix>_<base62>`, account ids, signing secrets, Pix ids. */
import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomText(alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += alphabet[randomInt(alphabet.length)];
  return text;
}

/** `pi_3P5ktxEzVBJFlm8c13Qzn9bX`-like ids: a prefix and 24 base62 characters. */
export function newId(prefix: 'pi' | 'ch' | 'txn' | 'evt' | 'we' | 'req' | 'pm' | 're' | 'dp' | 'po' | 'ba' | 'acct' | 'tr', length = 24): string {
  return `${prefix}_${randomText(BASE62, length)}`;
}

/** The client secret of a PaymentIntent: `<pi id>_secret_<25 base62>`. */
export function newClientSecret(paymentIntentId: string): string {
  return `${paymentIntentId}_secret_${randomText(BASE62, 25)}`;
}

/** `whsec_` + 32 base62 characters, like the secrets Stripe issues for webhook endpoints. */
export function newWebhookSecret(): string {
  return `whsec_${randomText(BASE62, 32)}`;
}

/**
 * The account a secret key belongs to. Stripe binds each key to an `acct_…`; the emulator derives
 * one from the key so stats and logs can name the account without ever showing the key.
 */
export function accountIdForKey(secretKey: string): string {
  const digest = createHash('sha256').update(`stripe-emulator:${secretKey}`).digest();
  let id = '';
  for (let i = 0; i < 16; i += 1) id += BASE62[(digest[i] ?? 0) % BASE62.length];
  return `acct_${id}`;
}

/** The payer bank's ISPB in emulated endToEndIds (any 8 digits do; this one is Bradesco's). */
const PAYER_ISPB = '60746948';

/** `E` + ISPB (8) + `yyyyMMddHHmm` (UTC) + 11 alphanumerics: the Pix EndToEndId (32 characters). */
export function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E${PAYER_ISPB}${stamp}${randomText(ALNUM, 11)}`;
}

/** Random path segment of the emulated Pix payload URL. */
export function newPixToken(): string {
  return randomText(BASE62.toLowerCase().slice(0, 36), 32);
}

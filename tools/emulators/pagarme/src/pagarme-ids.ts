/** Identifiers shaped like Pagar.me's: a resource prefix and 16 base62 characters. */
import { createHash, randomInt, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** Deterministic 16 base62 characters of `seed` (same input, same id: restarts keep ids). */
function stableBase62(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; i < 16; i += 1) out += BASE62[(digest[i] ?? 0) % BASE62.length];
  return out;
}

export type IdPrefix = 'or' | 'ch' | 'tran' | 'oi' | 'hook' | 'rp' | 'sr' | 'card';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base62(16)}`;
}

/** The account an API key belongs to: derived from the key, so it is stable and never shows the key. */
export function accountIdFor(secretKey: string): string {
  return `acc_${stableBase62(`pagarme-emulator:account:${secretKey}`)}`;
}

/** The account's own (default) recipient, `rp_…`: one per account, stable across restarts. */
export function recipientIdFor(accountId: string): string {
  return `rp_${stableBase62(`pagarme-emulator:recipient:${accountId}`)}`;
}

/** A withdrawal's id, as Pagar.me names transfers (`tran_…`). */
export function newWithdrawalId(): string {
  return newId('tran');
}

/** Pagar.me reuses one customer per document within an account. */
export function customerIdFor(accountId: string, document: string): string {
  return `cus_${stableBase62(`pagarme-emulator:customer:${accountId}:${document}`)}`;
}

/** Digits, like the `gateway_id` / `pix_provider_tid` the PSP behind Pagar.me reports. */
export function newGatewayId(): string {
  return String(randomInt(1_000_000_000, 9_999_999_999));
}

/** The opaque last segment of a Pix payload location URL (a UUID in Pagar.me's codes). */
export function newLocationToken(): string {
  return randomUUID();
}

/** Stone's ISPB: Pagar.me's Pix codes are issued by Stone (`pix.stone.com.br`). */
const PAYER_ISPB = '16501555';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `E` + ISPB (8) + `yyyyMMddHHmm` (12, UTC) + 11 alphanumerics: the 32-character EndToEndId. */
export function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  let tail = '';
  for (let i = 0; i < 11; i += 1) tail += ALNUM[randomInt(ALNUM.length)];
  return `E${PAYER_ISPB}${stamp}${tail}`;
}

import { createHmac } from 'node:crypto';

/**
 * A card's fingerprint: HMAC-SHA256 keyed by the vault's FINGERPRINT_KEY over the merchant id and
 * the number. The same number gives the same fingerprint for one merchant (in both modes) and a
 * different one for every other merchant, so fingerprints cannot be matched across merchants, and
 * without the key they cannot be brute-forced from the (small) space of card numbers.
 */
export function cardFingerprint(key: string, merchantId: string, number: string): string {
  return createHmac('sha256', key).update(`${merchantId}\u0000${number}`).digest('base64url').slice(0, 24);
}

/** Identifiers shaped like Mercado Pago's: numeric payment and user ids, Pix EVP keys, E2E ids. */
import { createHash, randomInt } from 'node:crypto';

/** Mercado Pago Instituição de Pagamento Ltda's ISPB, the receiving participant of its Pix. */
const MERCADO_PAGO_ISPB = '10573521';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The user (collector) id of an access token. Real tokens end in it
 * (`APP_USR-<app id>-<date>-<hash>-<user id>`, likewise `TEST-…`); for other strings a stable
 * number is derived from a hash, so the id never reveals the token.
 */
export function userIdForToken(token: string): number {
  const last = token.slice(token.lastIndexOf('-') + 1);
  if (/^\d{5,12}$/.test(last)) return Number(last);
  return 100_000_000 + (parseInt(createHash('sha256').update(token).digest('hex').slice(0, 8), 16) % 900_000_000);
}

/** A stable random-looking EVP Pix key (UUID v4 layout) for an account, derived from its user id. */
export function evpKeyFor(userId: number): string {
  const hex = createHash('sha256').update(`mercadopago-emulator:evp:${userId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `E` + ISPB (8) + `yyyyMMddHHmm` (UTC) + 11 alphanumerics: the 32-character Pix EndToEndId. */
export function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  let tail = '';
  for (let i = 0; i < 11; i += 1) tail += ALNUM[randomInt(ALNUM.length)];
  return `E${MERCADO_PAGO_ISPB}${stamp}${tail}`;
}

/** A random starting point for numeric ids, so ids of different runs rarely collide. */
export function idSeed(base: number): number {
  return base + randomInt(1_000_000) * 100;
}

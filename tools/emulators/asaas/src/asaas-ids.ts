/** Identifiers in the shapes Asaas uses (`pay_…`, `cus_…`, `evt_…&…`, UUIDs, Pix EndToEndIds). */
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) out += String(randomInt(10));
  return out;
}

/** `pay_0491859546906926` (Asaas's newer ids are 16 digits). */
export const newPaymentId = () => `pay_${digits(16)}`;
/** `cus_000005219613`. */
export const newCustomerId = () => `cus_${digits(12)}`;
/** `evt_05b708f961d739ea7eba7e4db318f621&368604920`, as in Asaas's webhook docs. */
export const newEventId = () => `evt_${randomBytes(16).toString('hex')}&${digits(9)}`;
export const newUuid = () => randomUUID();
export const newInvoiceNumber = () => digits(8);

/** Asaas Gestão Financeira IP S.A., the receiving participant of its Pix. */
export const ASAAS_ISPB = '19540550';

/** `E` + ISPB (8) + `yyyyMMddHHmm` (UTC, 12) + 11 alphanumerics: the rulebook's 32-character EndToEndId. */
export function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  let tail = '';
  for (let i = 0; i < 11; i += 1) tail += ALNUM[randomInt(ALNUM.length)];
  return `E${ASAAS_ISPB}${stamp}${tail}`;
}

/**
 * The emulator's id of the account behind an API key: stable, and not the key itself, so stats,
 * logs and fault scopes never carry the secret.
 */
export function accountIdFor(apiKey: string): string {
  return `acct_${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

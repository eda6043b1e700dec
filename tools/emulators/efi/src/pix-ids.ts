/** Identifiers the Banco Central API Pix defines, generated the way a receiving PSP would. */
import { randomBytes, randomInt } from 'node:crypto';

export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;

/** Efí's ISPB (Efí S.A.), the receiving participant in the endToEndIds it reports. */
const EFI_ISPB = '09089356';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `E` + payer ISPB (8) + `yyyyMMddHHmm` (12, UTC) + 11 alphanumerics = 32 characters, the
 * EndToEndId format of the Pix rulebook. The emulator uses Efí's ISPB for the payer as well.
 */
export function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  let tail = '';
  for (let i = 0; i < 11; i += 1) tail += ALNUM[randomInt(ALNUM.length)];
  return `E${EFI_ISPB}${stamp}${tail}`;
}

/** `D` + ISPB (8) + `yyyyMMddHHmm` + 11 alphanumerics: the rtrId of a devolução (32 characters). */
export function newReturnId(at: Date): string {
  return `D${newEndToEndId(at).slice(1)}`;
}

/** The opaque path segment of a payload location URL (Efí uses 32 hex characters). */
export function newLocationToken(): string {
  return randomBytes(16).toString('hex');
}

export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The id Efí's dashboard gives a devolução made there (not one of ours: no `re` prefix). */
export function newDashboardRefundId(): string {
  return `painel${randomBytes(12).toString('hex')}`;
}

/** A txid Efí chooses for a charge made in its dashboard (32 alphanumerics, inside `[a-zA-Z0-9]{26,35}`). */
export function newDashboardTxid(): string {
  let txid = '';
  for (let i = 0; i < 32; i += 1) txid += ALNUM[randomInt(ALNUM.length)];
  return txid;
}

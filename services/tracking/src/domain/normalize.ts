/**
 * Normalizing and hashing the buyer's e-mail and phone before they leave for an ad tool. Meta and
 * TikTok match people by SHA-256 of normalized values and never receive the raw ones; each tool
 * normalizes phones its own way (../shared/providers/ad-integrations.md §2 and §3).
 */
import { createHash } from 'node:crypto';

/** SHA-256 as 64 lowercase hex characters, the form both tools expect. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Trimmed and lowercased; null when nothing is left (both tools' rule for e-mail). */
export function normalizeEmail(email: string | null | undefined): string | null {
  const normalized = (email ?? '').trim().toLowerCase();
  return normalized.length > 0 ? normalized : null;
}

/**
 * The phone's digits with Brazil's country code: stored phones are Brazilian numbers with or
 * without `+55`/`55`, with or without the trunk `0` before the DDD (`(011) 9…`), formatted any way.
 * A number that already carries 55 and has 12–13 digits keeps it; 10–11 digits (DDD + number)
 * get 55 in front. Null when it does not look like a Brazilian phone (too short or too long),
 * because a wrong number hashed is worse than none: it can match another person.
 */
export function brazilianPhoneDigits(phone: string | null | undefined): string | null {
  let digits = (phone ?? '').replace(/\D/g, '');
  // International prefix (00) and the trunk 0 of a national number carry no identity.
  digits = digits.replace(/^0+/, '');
  // DDDs never start with 0: a 0 after the country code is the trunk prefix (`+55 (011) …`).
  if (digits.startsWith('550')) digits = `55${digits.slice(2).replace(/^0+/, '')}`;
  if (digits.startsWith('55') && (digits.length === 12 || digits.length === 13)) return digits;
  if (digits.length === 10 || digits.length === 11) return `55${digits}`;
  return null;
}

/** Meta: digits with the country code, no `+`, no leading zeros (Brazil: 55 + DDD + number). */
export function metaPhone(phone: string | null | undefined): string | null {
  return brazilianPhoneDigits(phone);
}

/** TikTok: E.164 with the `+` (Segment's TikTok Conversions destination hashes it so). */
export function tiktokPhone(phone: string | null | undefined): string | null {
  const digits = brazilianPhoneDigits(phone);
  return digits ? `+${digits}` : null;
}

export const hashedEmail = (email: string | null | undefined): string | null => {
  const normalized = normalizeEmail(email);
  return normalized ? sha256Hex(normalized) : null;
};

export const metaHashedPhone = (phone: string | null | undefined): string | null => {
  const normalized = metaPhone(phone);
  return normalized ? sha256Hex(normalized) : null;
};

export const tiktokHashedPhone = (phone: string | null | undefined): string | null => {
  const normalized = tiktokPhone(phone);
  return normalized ? sha256Hex(normalized) : null;
};

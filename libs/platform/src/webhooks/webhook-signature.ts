import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (docs/events.md "Verifying a delivery"). Every delivery carries
 *
 *   Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=<hex>…]
 *
 * where each v1 is HMAC-SHA256, keyed with the endpoint's whole secret string (`whsec_…`, as
 * UTF-8), of `<t>.<raw request body>`. During a secret rotation there is one v1 per valid secret.
 * This file imports only node:crypto so that the SDK and receivers can reuse it as is.
 */

export const SIGNATURE_HEADER = 'Service-Signature';
export const EVENT_ID_HEADER = 'Service-Event-Id';
export const DEFAULT_TOLERANCE_SEC = 300;

/** The hex HMAC of one signed payload. */
export function computeWebhookSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The Service-Signature header value for a body, signed with every given secret. */
export function signWebhookPayload(rawBody: string | Buffer, secrets: readonly string[], timestamp = Math.floor(Date.now() / 1000)): string {
  if (secrets.length === 0) throw new Error('at least one secret is needed to sign a webhook');
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeWebhookSignature(secret, timestamp, rawBody)}`)].join(',');
}

export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/** Parses `t=…,v1=…[,v1=…]`; unknown schemes are ignored (a future v2 does not break v1 receivers). */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === undefined || signatures.length === 0 ? null : { timestamp, signatures };
}

export type WebhookVerification =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

/**
 * Checks a delivery: the header parses, its timestamp is within `toleranceSec` of now (replays of
 * old deliveries fail), and one of its v1 signatures matches one of `secrets` (pass both the old
 * and the new secret while a rotation is under way). Compare the RAW body bytes as received: a
 * re-serialised JSON object does not verify.
 *
 * @example
 * const result = verifyWebhookSignature(rawBody, req.headers['service-signature'], [process.env.WHSEC]);
 * if (!result.ok) return res.status(400).end();
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secrets: readonly string[],
  toleranceSec = DEFAULT_TOLERANCE_SEC,
  nowSec = Math.floor(Date.now() / 1000),
): WebhookVerification {
  const parsed = header ? parseSignatureHeader(header) : null;
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  if (Math.abs(nowSec - parsed.timestamp) > toleranceSec) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  for (const secret of secrets) {
    const expected = Buffer.from(computeWebhookSignature(secret, parsed.timestamp, rawBody), 'hex');
    for (const signature of parsed.signatures) {
      if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { ok: true, timestamp: parsed.timestamp };
    }
  }
  return { ok: false, reason: 'no_matching_signature' };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { OrquestraError } from '../errors';
import type { Event } from '../types/event.types';

// Verifying webhook deliveries. Each delivery carries
//
//   Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=<hex>…]
//
// where every v1 is HMAC-SHA256, keyed with the endpoint secret, of "<t>.<raw body>". Several v1
// appear while a secret is being rotated; one matching is enough. A delivery older (or newer) than
// the tolerance is refused, so a captured delivery cannot be replayed later.

export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Raised when a delivery's signature is missing, malformed, stale or does not match. */
export class SignatureVerificationError extends OrquestraError {
  constructor(code: 'malformed_signature' | 'timestamp_out_of_tolerance' | 'signature_mismatch', message: string) {
    super({ message, code, type: 'signature_verification_error' });
  }
}

export interface VerifyOptions {
  /** Seconds a delivery's timestamp may differ from now. Default 300. */
  toleranceSeconds?: number;
  /** Unix seconds to judge the timestamp against (tests). */
  nowSeconds?: number;
}

interface ParsedHeader {
  timestamp: number;
  signatures: Buffer[];
}

function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.split('=', 2).map((piece) => piece.trim());
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    // Unknown schemes (v0, a future v2) are ignored.
    if (key === 'v1' && value && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  return timestamp === undefined || signatures.length === 0 ? null : { timestamp, signatures };
}

/** Hex HMAC-SHA256 of "<timestamp>.<raw body>" with the secret. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Throws SignatureVerificationError unless the header signs this exact raw body with one of
 * `secrets` (pass the old and the new one during a rotation) within the tolerance. Use the raw
 * bytes as received: a re-serialised JSON object will not verify.
 *
 * @example
 * app.post('/webhooks/orquestra', express.raw({ type: 'application/json' }), (req, res) => {
 *   const event = constructEvent(req.body, req.get('service-signature'), process.env.ORQUESTRA_WEBHOOK_SECRET!);
 *   // dedupe by event.id, then act on event.type
 *   res.sendStatus(200);
 * });
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): void {
  const parsed = header ? parseHeader(header) : null;
  if (!parsed) throw new SignatureVerificationError('malformed_signature', 'Cabeçalho Service-Signature ausente ou malformado.');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > tolerance) {
    throw new SignatureVerificationError('timestamp_out_of_tolerance', `A entrega tem mais de ${tolerance} s de diferença do relógio: recusada.`);
  }
  const candidates = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), 'hex'),
  );
  const matches = parsed.signatures.some((signature) => candidates.some((expected) => timingSafeEqual(signature, expected)));
  if (!matches) throw new SignatureVerificationError('signature_mismatch', 'Nenhuma assinatura v1 confere com o segredo do endpoint.');
}

/** Verifies the delivery and returns the parsed event. */
export function constructEvent<T = Record<string, unknown>>(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): Event<T> {
  verifySignature(rawBody, header, secrets, options);
  return JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')) as Event<T>;
}

/**
 * A Service-Signature header for `rawBody`, as the API would send it: for your own tests of a
 * webhook handler (pass several secrets to mimic a rotation).
 */
export function generateTestHeader(rawBody: string | Buffer, secrets: string | readonly string[], timestamp = Math.floor(Date.now() / 1000)): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0) throw new Error('Orquestra: informe ao menos um segredo para assinar.');
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`)].join(',');
}

/** The webhook helpers as one object: `orquestra.webhooks.constructEvent(...)` or `Orquestra.webhooks…`. */
export const webhooks = Object.freeze({
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  constructEvent,
  verifySignature,
  computeSignature,
  generateTestHeader,
});

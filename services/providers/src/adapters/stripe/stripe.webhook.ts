/**
 * Stripe webhooks, pure: the `Stripe-Signature` check and reading the event. Scheme
 * (docs.stripe.com/webhooks#verify-manually; stripe-node Webhooks.ts): the header is
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`; a v1 is HMAC-SHA256(endpoint secret,
 * `${t}.${raw body}`) in hex. Several v1 appear while a rolled secret overlaps the new one; `v0` (test
 * mode) is made with another key and never counts. The timestamp is inside the signed text, so
 * refusing old timestamps (tolerance 300 s, stripe-node's default) stops replays of captured calls.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { stripeDisputeOf, type StripeDispute } from './stripe.disputes';
import { webhookObject } from '../webhook-body';

/** Stripe's default tolerance (stripe-node `DEFAULT_TOLERANCE`). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignatureHeader {
  timestamp: number;
  signatures: string[];
}

/** `t=…,v1=…` → its timestamp and v1 signatures; undefined without a timestamp or a v1. */
export function parseSignatureHeader(header: string | undefined): SignatureHeader | undefined {
  if (!header) return undefined;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

export function computeSignature(secret: string, timestamp: number, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

export type SignatureCheck = 'valid' | 'missing' | 'mismatch' | 'outside_tolerance';

/**
 * Checks the header against the raw body. Timestamps more than `toleranceSeconds` away from now
 * are refused in both directions (stripe-node refuses only old ones; a far-future one can only come
 * from a skewed clock or a forger, and refusing it costs a Stripe retry at worst).
 */
export function verifyStripeSignature(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  const parsed = parseSignatureHeader(header);
  if (!parsed || secret.length === 0) return 'missing';
  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), 'hex');
  const matches = parsed.signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  if (!matches) return 'mismatch';
  return Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds ? 'outside_tolerance' : 'valid';
}

/** `Stripe-Signature: t=…,v1=…` for a body (tests, and what the emulator does). */
export function signatureHeaderFor(secret: string, timestamp: number, rawBody: Buffer): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, rawBody)}`;
}

export type ParsedStripeEvent =
  | { kind: 'event'; eventId: string; type: string; paymentIntentIds: string[]; dispute?: StripeDispute }
  | { kind: 'malformed' };

/**
 * An event `{id: "evt_…", object: "event", type, data: {object}, created, livemode}`. The charge it
 * is about: the PaymentIntent itself (`payment_intent.*`) or a Charge's `payment_intent`
 * (`charge.*`); other events (endpoint tests, payouts, …) name none. A `charge.dispute.*` event
 * carries a Dispute: it is the report (stripe.disputes.ts) and names no charge to re-read (a dispute
 * does not change the PaymentIntent); one whose status is unknown is acknowledged and ignored.
 */
export function parseStripeEvent(rawBody: Buffer): ParsedStripeEvent {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const { id, object, type, data } = body as { id?: unknown; object?: unknown; type?: unknown; data?: unknown };
  if (typeof id !== 'string' || !id || object !== 'event' || typeof type !== 'string' || !type) return { kind: 'malformed' };
  const inner = (data as { object?: unknown } | null | undefined)?.object;
  if (typeof inner !== 'object' || inner === null) return { kind: 'malformed' };
  const resource = inner as { object?: unknown; id?: unknown; payment_intent?: unknown };
  if (type.startsWith('charge.dispute.')) {
    const read = stripeDisputeOf(inner);
    if (!read.ok && read.reason === 'malformed') return { kind: 'malformed' };
    return { kind: 'event', eventId: id, type, paymentIntentIds: [], ...(read.ok ? { dispute: read.dispute } : {}) };
  }
  const ids: string[] = [];
  if (resource.object === 'payment_intent' && typeof resource.id === 'string') ids.push(resource.id);
  else if (typeof resource.payment_intent === 'string' && resource.payment_intent) ids.push(resource.payment_intent);
  return { kind: 'event', eventId: id, type, paymentIntentIds: ids };
}

/** A header by name, whatever its case (Node lowercases, other callers may not). */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

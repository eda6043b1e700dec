/**
 * Mercado Pago webhook authenticity and parsing (pure; no I/O).
 *
 * Mercado Pago signs each Webhooks-format notification with the application's "assinatura
 * secreta": header `x-signature: ts=<ms>,v1=<hex>` where v1 = HMAC-SHA256(secret, manifest) and
 * manifest = `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`. `data.id` is the query parameter
 * Mercado Pago appends to the notification URL, lower-cased (it matters for alphanumeric ids such
 * as orders; payment ids are digits); a pair whose value is absent is left out of the manifest
 * (docs "Notificações > Webhooks > validar origem"; mercadopago/sdk-nodejs src/utils/webhook).
 *
 * The signature covers the id, not the body: the charge ids we answer are the signed `data.id`,
 * and a body naming another id is treated as tampered.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookParseResult, WebhookRequest } from '../provider-adapter';
import { CHARGEBACK_ID, CHARGEBACK_TOPICS } from './mercadopago.chargebacks';

/**
 * Replay window around `ts`. Mercado Pago documents no window; its SDK offers an optional
 * tolerance (example 300 s) and signs every delivery attempt afresh, so a genuine retry is inside
 * it while a captured notification replayed later is not.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignatureParts {
  ts: string;
  v1: string;
}

/** `ts=…,v1=…` (keys in any order, spaces tolerated, unknown versions ignored); undefined when unusable. */
export function parseSignatureHeader(header: string | undefined): SignatureParts | undefined {
  if (!header) return undefined;
  let ts: string | undefined;
  let v1: string | undefined;
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    if (key === 'v1') v1 = value.toLowerCase();
  }
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return undefined;
  return { ts, v1 };
}

export function signatureManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  return `${dataId ? `id:${dataId.toLowerCase()};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

export function computeSignature(secret: string, dataId: string | undefined, requestId: string | undefined, ts: string): string {
  return createHmac('sha256', secret).update(signatureManifest(dataId, requestId, ts)).digest('hex');
}

/** `ts` is in milliseconds (SDK and live headers); a 10-digit value is read as seconds, as older docs show it. */
export function signatureTimeMs(ts: string): number {
  const value = Number(ts);
  return ts.length <= 10 ? value * 1000 : value;
}

/** Equal-length digests for timingSafeEqual: no early exit on a length mismatch either. */
export function sameSecret(expected: string, candidate: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(candidate).digest();
  return timingSafeEqual(a, b);
}

function header(headers: Record<string, string>, name: string): string | undefined {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = found?.[1]?.trim();
  return value ? value : undefined;
}

interface NotificationBody {
  id?: unknown;
  type?: unknown;
  action?: unknown;
  data?: { id?: unknown };
}

function parseBody(rawBody: Buffer): NotificationBody | undefined {
  try {
    const body: unknown = JSON.parse(rawBody.toString('utf8'));
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as NotificationBody) : undefined;
  } catch {
    return undefined;
  }
}

const asId = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;

export interface VerifyOptions {
  /** The account's "assinatura secreta" (credential `webhook_secret`). */
  secret: string | undefined;
  /** Our per-account secret, checked when Mercado Pago echoes it back in `?hmac=`. */
  urlSecret: string;
  nowMs: number;
  toleranceSeconds?: number;
}

const UNAUTHENTICATED: WebhookParseResult = { ok: false, reason: 'unauthenticated', httpStatus: 401 };
const MALFORMED: WebhookParseResult = { ok: false, reason: 'malformed', httpStatus: 400 };

export function parseMercadoPagoWebhook(request: WebhookRequest, options: VerifyOptions): WebhookParseResult {
  const body = parseBody(request.rawBody);
  const bodyDataId = asId(body?.data?.id);
  const dataId = request.query['data.id'] || bodyDataId;
  const requestId = header(request.headers, 'x-request-id');
  const signature = parseSignatureHeader(header(request.headers, 'x-signature'));

  // Authenticity first: nothing about an unsigned request is worth a 400 hint.
  if (!options.secret || !signature) return UNAUTHENTICATED;
  const expected = computeSignature(options.secret, dataId, requestId, signature.ts);
  if (!timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature.v1, 'hex'))) return UNAUTHENTICATED;
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (tolerance > 0 && Math.abs(options.nowMs - signatureTimeMs(signature.ts)) > tolerance * 1000) return UNAUTHENTICATED;
  const urlSecret = request.query['hmac'];
  if (urlSecret !== undefined && !sameSecret(options.urlSecret, urlSecret)) return UNAUTHENTICATED;

  if (!body || typeof body.type !== 'string' || !dataId) return MALFORMED;
  // The body is not signed: one naming another resource than the signed data.id was altered.
  if (bodyDataId !== undefined && bodyDataId.toLowerCase() !== dataId.toLowerCase()) return UNAUTHENTICATED;

  const notificationId = asId(body.id);
  const eventKey = notificationId
    ? `mercadopago:notification:${notificationId}`
    : `mercadopago:${createHash('sha256').update(`${body.type}|${String(body.action)}|${dataId}|${signature.ts}`).digest('hex').slice(0, 32)}`;
  // A chargeback's notification names it only: the adapter reads it back (mercadopago.chargebacks.ts).
  if ((CHARGEBACK_TOPICS as readonly string[]).includes(body.type)) {
    if (!CHARGEBACK_ID.test(dataId)) return MALFORMED;
    return { ok: true, providerPaymentIds: [], eventKey, disputeIds: [dataId] };
  }
  if (body.type !== 'payment') return { ok: true, providerPaymentIds: [], eventKey };
  // Payment ids are numbers; anything else cannot name one of our charges.
  if (!/^\d{1,19}$/.test(dataId)) return MALFORMED;
  return { ok: true, providerPaymentIds: [dataId], eventKey };
}

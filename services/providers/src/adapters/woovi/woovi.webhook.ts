/**
 * Woovi webhooks, pure: the `x-webhook-signature` check and reading the body.
 *
 * Scheme (developers.woovi.com "Validando Webhook payload usando x-webhook-signature"): the header is
 * base64 RSA-SHA256 (PKCS#1 v1.5) over the raw body, made with Woovi's private key and verified with
 * Woovi's public key — one per environment, published at `GET /api/v1/webhook/public-keys` as a list
 * so keys can rotate. The signature covers the body only (no timestamp), so there is no replay window
 * to enforce: replays are absorbed by the event key (dedupe) and the `hmac` secret in our URL.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { wooviDisputeOf, type WooviDispute } from './woovi.disputes';
import { webhookObject } from '../webhook-body';

const PEM_PUBLIC_KEY = /-----BEGIN (?:RSA )?PUBLIC KEY-----[\s\S]+?-----END (?:RSA )?PUBLIC KEY-----/g;

/** Every public key in a PEM bundle (several while Woovi rotates keys); malformed blocks are skipped. */
export function parsePublicKeys(pemBundle: string | undefined): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const pem of pemBundle?.match(PEM_PUBLIC_KEY) ?? []) {
    try {
      keys.push(createPublicKey(pem));
    } catch {
      // A damaged key cannot verify anything; the others still can.
    }
  }
  return keys;
}

export type SignatureCheck = 'valid' | 'missing' | 'mismatch';

export function verifyWooviSignature(rawBody: Buffer, header: string | undefined, keys: readonly KeyObject[]): SignatureCheck {
  const text = header?.trim();
  if (!text || keys.length === 0) return 'missing';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return 'mismatch';
  const signature = Buffer.from(text, 'base64');
  return keys.some((key) => verify('sha256', rawBody, key, signature)) ? 'valid' : 'mismatch';
}

export type ParsedWooviWebhook =
  | { kind: 'charge'; event: string; correlationIDs: string[]; eventKey: string }
  | { kind: 'dispute'; event: string; dispute: WooviDispute; eventKey: string }
  | { kind: 'other'; event: string; eventKey: string }
  | { kind: 'malformed' };

interface ChargeLike {
  correlationID?: unknown;
  status?: unknown;
}

function correlationIdOf(charge: unknown): string | undefined {
  if (typeof charge !== 'object' || charge === null) return undefined;
  const id = (charge as ChargeLike).correlationID;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

const digest = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * Charge events carry `{event, charge, pix?, company, account?}` (docs "Payload de Pix Cobrança",
 * "Payload de Cobrança Expirada"; the older paid example has no `event`). Registering a webhook
 * makes Woovi post `{"data_criacao", "event"}` once (docs "Validando o webhook de teste"): it names
 * no charge. Events about other things (movements, disputes, …) name none either.
 *
 * Woovi sends no event id; the key is the event, the charge and what happened to it (endToEndId of
 * the Pix, or the status), so retries of one notification dedupe even if re-serialized.
 */
export function parseWooviWebhookBody(rawBody: Buffer): ParsedWooviWebhook {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const { event, charge, pix, dispute, data_criacao: createdAt } = body as { event?: unknown; charge?: unknown; pix?: unknown; dispute?: unknown; data_criacao?: unknown };
  if (event !== undefined && typeof event !== 'string') return { kind: 'malformed' };
  if (dispute !== undefined && dispute !== null) {
    // MED (docs "Payload de Disputa …"): the key is the disputed Pix and its status, so redeliveries
    // of one notification dedupe and each status change is a new one.
    const read = wooviDisputeOf(dispute);
    if (!read.ok && read.reason === 'malformed') return { kind: 'malformed' };
    const name = event ?? 'OPENPIX:DISPUTE';
    if (!read.ok) return { kind: 'other', event: name, eventKey: `woovi:${name}:${digest(rawBody)}` };
    return { kind: 'dispute', event: name, dispute: read.dispute, eventKey: `woovi:dispute:${digest(`${read.dispute.endToEndId}|${read.dispute.status}`)}` };
  }
  const pixObject = typeof pix === 'object' && pix !== null ? (pix as { charge?: unknown; endToEndId?: unknown; transactionID?: unknown }) : undefined;

  if (charge !== undefined && charge !== null) {
    const correlationID = correlationIdOf(charge);
    if (!correlationID) return { kind: 'malformed' };
    const name = event ?? (pixObject ? 'OPENPIX:CHARGE_COMPLETED' : 'OPENPIX:CHARGE');
    const what = typeof pixObject?.endToEndId === 'string' ? pixObject.endToEndId : String((charge as ChargeLike).status ?? '');
    return { kind: 'charge', event: name, correlationIDs: [correlationID], eventKey: `woovi:${name}:${digest(`${correlationID}|${what}`)}` };
  }
  if (pixObject) {
    // A Pix received outside a charge (static QR) or with its charge inside `pix`.
    const correlationID = correlationIdOf(pixObject.charge);
    const name = event ?? 'OPENPIX:TRANSACTION_RECEIVED';
    const ids = correlationID ? [correlationID] : [];
    const what = typeof pixObject.endToEndId === 'string' ? pixObject.endToEndId : digest(rawBody);
    return { kind: 'charge', event: name, correlationIDs: ids, eventKey: `woovi:${name}:${digest(`${correlationID ?? ''}|${what}`)}` };
  }
  if (typeof event !== 'string') return { kind: 'malformed' };
  if (typeof createdAt === 'string') return { kind: 'other', event, eventKey: `woovi:test:${digest(`${event}|${createdAt}`)}` };
  return { kind: 'other', event, eventKey: `woovi:${event}:${digest(rawBody)}` };
}

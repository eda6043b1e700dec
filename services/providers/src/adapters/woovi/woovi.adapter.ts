/**
 * Woovi (OpenPix) Pix adapter: HTTP mechanics only (auth header, requests, transport errors).
 * Conversions and the error table live in woovi.transformers.ts, webhook checks in woovi.webhook.ts.
 *
 * Every call carries the account's AppID as is in `Authorization` (no `Bearer`). Charges are created
 * with a correlationID derived from our idempotency key — Woovi's idempotency key for charges — so a
 * repeated create answers the existing charge instead of making a second one.
 */
import { createHash, timingSafeEqual, type KeyObject } from 'node:crypto';
import { tlsConnectOptions } from '../http/tls-context';
import { Agent, request, type Dispatcher } from 'undici';
import {
  ProviderError,
  type AdapterContext,
  type CreateChargeInput,
  type ProviderAdapter,
  type ProviderCharge,
  type ProviderRefund,
  type RefundChargeInput,
  type WebhookParseResult,
  type WebhookRegistration,
  type WebhookRequest,
} from '../provider-adapter';
import type { ProviderDispute } from '../provider-disputes';
import { buildChargeRequest, chargeOf, isCorrelationIdInUse, providerErrorFor, toProviderCharge, type WooviCharge, type WooviChargeRequest } from './woovi.transformers';
import { toProviderDispute } from './woovi.disputes';
import { refundWooviCharge, wooviChargeRefunds } from './woovi.refunds';
import { parsePublicKeys, parseWooviWebhookBody, verifyWooviSignature } from './woovi.webhook';

/** What the request was, for classifying a failure without an answer. */
type Operation = 'create' | 'read' | 'write';

/** The events we need: a charge paid, a charge no longer payable, refunds, and MED disputes. */
export const WEBHOOK_EVENTS = [
  'OPENPIX:CHARGE_COMPLETED',
  'OPENPIX:CHARGE_EXPIRED',
  'OPENPIX:TRANSACTION_REFUND_RECEIVED',
  'OPENPIX:DISPUTE_CREATED',
  'OPENPIX:DISPUTE_ACCEPTED',
  'OPENPIX:DISPUTE_REJECTED',
  'OPENPIX:DISPUTE_CANCELED',
] as const;

/** `context.settings` key: Woovi's webhook public key(s) for the account's environment, PEM. */
export const PUBLIC_KEY_SETTING = 'webhook_public_key';

const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function transportCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: { code?: unknown }[] };
  const code = e.code ?? e.cause?.code ?? e.errors?.[0]?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/**
 * A failure with no HTTP answer. Refused connections, DNS, TLS and resets mean Woovi did not act
 * (a reset that hid a created charge is harmless: nobody has its QR code, it expires unpaid, and a
 * retry with the same correlationID finds it). No answer within the timeout on a create is
 * "ambiguous": the caller must read back the same correlationID before moving on.
 */
export function classifyTransportError(err: unknown, operation: Operation): ProviderError {
  const code = transportCode(err);
  const what = `woovi ${operation}: ${code}`;
  if (CONNECT_PHASE_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || RESET_CODES.has(code)) {
    return new ProviderError('not_created', 'provider_unavailable', what);
  }
  if (TIMEOUT_CODES.has(code)) return new ProviderError('ambiguous', 'provider_timeout', what);
  return new ProviderError(operation === 'read' ? 'not_created' : 'ambiguous', 'provider_error', what);
}

interface Answer {
  status: number;
  body: unknown;
}

export class WooviAdapter implements ProviderAdapter {
  readonly provider = 'woovi';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #appId: string;
  readonly #webhookSecret: string;
  readonly #agent: Agent;
  readonly #publicKeys: KeyObject[];
  private readonly baseUrl: string;
  private readonly controlUrl: string | undefined;
  private readonly timeoutMs: number;

  constructor(context: AdapterContext) {
    this.baseUrl = context.baseUrl.replace(/\/+$/, '');
    this.controlUrl = context.controlUrl?.replace(/\/+$/, '');
    this.timeoutMs = context.timeoutMs;
    this.#appId = context.credentials['app_id'] ?? '';
    this.#webhookSecret = context.webhookSecret;
    this.#publicKeys = parsePublicKeys(context.settings[PUBLIC_KEY_SETTING]);
    this.#agent = new Agent({
      // An extra CA is added to Node's roots, not substituted for them: live Woovi still verifies.
      connect: { timeout: context.timeoutMs, ...tlsConnectOptions({ caPem: context.caPem }) },
      headersTimeout: context.timeoutMs,
      bodyTimeout: context.timeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#agent.close();
  }

  private async send(dispatcher: Dispatcher, url: string, method: Dispatcher.HttpMethod, operation: Operation, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    try {
      const response = await request(url, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        dispatcher,
      });
      const text = await response.body.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON (an HTML error page from a proxy): keep the text for the message.
      }
      return { status: response.statusCode, body: parsed };
    } catch (err) {
      throw classifyTransportError(err, operation);
    }
  }

  private api(method: Dispatcher.HttpMethod, path: string, operation: Operation, body?: unknown): Promise<Answer> {
    return this.send(this.#agent, `${this.baseUrl}${path}`, method, operation, { authorization: this.#appId, accept: 'application/json' }, body);
  }

  /** The charge of a 2xx answer; an answer without one is Woovi misbehaving (the create may have happened). */
  private chargeFrom(answer: Answer, operation: Operation): WooviCharge {
    const charge = chargeOf(answer.body);
    if (charge) return charge;
    throw new ProviderError(operation === 'read' ? 'not_created' : 'ambiguous', 'provider_error', `woovi ${operation}: HTTP ${answer.status} without a readable charge`, answer.status);
  }

  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/api/v1/charge?limit=1', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    if (input.method !== 'pix') {
      throw new ProviderError('rejected', 'provider_rejected', `woovi adapter supports pix only, not ${input.method}`);
    }
    let chargeRequest: WooviChargeRequest;
    try {
      chargeRequest = buildChargeRequest(input);
    } catch (err) {
      // An amount or expiry no Pix charge can carry fails anywhere.
      throw new ProviderError('rejected', 'provider_rejected', `woovi create: ${(err as Error).message}`);
    }
    const charge = await this.createOrRead(chargeRequest);
    if (charge.value !== input.amount) {
      throw new ProviderError('rejected', 'provider_rejected', `woovi create: correlationID ${chargeRequest.correlationID} already holds a charge of another amount`);
    }
    return toProviderCharge(charge);
  }

  /**
   * POST with `return_existing=true` (OpenAPI: "will return an existent charge if already has one
   * with the correlationID"). Should Woovi refuse the repeat instead, the existing one is read back.
   */
  private async createOrRead(chargeRequest: WooviChargeRequest): Promise<WooviCharge> {
    const answer = await this.api('POST', '/api/v1/charge?return_existing=true', 'create', chargeRequest);
    if (answer.status === 200 || answer.status === 201) return this.chargeFrom(answer, 'create');
    if (isCorrelationIdInUse(answer.status, answer.body)) return this.readCharge(chargeRequest.correlationID);
    throw providerErrorFor(answer.status, answer.body, 'create charge');
  }

  private async readCharge(id: string): Promise<WooviCharge> {
    const answer = await this.api('GET', `/api/v1/charge/${encodeURIComponent(id)}`, 'read');
    if (answer.status === 200) return this.chargeFrom(answer, 'read');
    throw providerErrorFor(answer.status, answer.body, 'get charge');
  }

  async getCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const charge = toProviderCharge(await this.readCharge(providerPaymentId));
    if (charge.status !== 'paid') return charge;
    // Refunds live beside the charge (woovi.refunds.ts); a charge read without them still stands.
    const refunds = await wooviChargeRefunds((m, p, o, b) => this.api(m, p, o, b), providerPaymentId).catch(() => []);
    return refunds.length > 0 ? { ...charge, refunds } : charge;
  }

  /** Idempotent on the refund's correlationID, derived from our refund id (woovi.refunds.ts). */
  refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    return refundWooviCharge((m, p, o, b) => this.api(m, p, o, b), input);
  }

  /**
   * Woovi's DELETE removes an unpaid charge (answering `{status:"OK", id}`, not the charge), so the
   * charge is read first: a paid or expired one is answered as it is, an active one deleted and
   * answered canceled. A charge paid between the read and the delete makes the delete fail; the
   * read after it answers it as paid.
   */
  async cancelCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const before = await this.readCharge(providerPaymentId);
    if (before.status !== 'ACTIVE') return toProviderCharge(before);
    const answer = await this.api('DELETE', `/api/v1/charge/${encodeURIComponent(providerPaymentId)}`, 'write');
    if (answer.status === 200 || answer.status === 204) {
      return { ...toProviderCharge(before), status: 'canceled', nextAction: { type: 'none' } };
    }
    const error = providerErrorFor(answer.status, answer.body, 'cancel charge');
    if (error.kind !== 'rejected') throw error;
    const after = await this.readCharge(providerPaymentId);
    if (after.status !== 'ACTIVE') return toProviderCharge(after);
    throw error;
  }

  async simulatePaid(providerPaymentId: string): Promise<void> {
    if (!this.controlUrl) {
      throw new ProviderError('rejected', 'provider_rejected', 'woovi simulatePaid: only the sandbox emulator can simulate payments');
    }
    const url = `${this.controlUrl}/__control/charges/${encodeURIComponent(providerPaymentId)}/pay`;
    const plain = new Agent({ connect: { timeout: this.timeoutMs }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    try {
      // The AppID names the account, in case two accounts used the same correlationID.
      const answer = await this.send(plain, url, 'POST', 'write', {}, { account: this.#appId });
      if (answer.status === 200) return;
      if (answer.status === 404) throw new ProviderError('not_found', 'not_found', `woovi simulatePaid: no charge ${providerPaymentId}`, 404);
      throw new ProviderError('rejected', 'provider_rejected', `woovi simulatePaid: HTTP ${answer.status}`, answer.status);
    } finally {
      await plain.close();
    }
  }

  /**
   * One Woovi webhook per event we need, for `url` as given (it carries our `hmac` secret). Ones
   * already registered for this URL are kept, so registering again adds nothing. Woovi issues no
   * per-webhook secret for the RSA scheme: its public key is the same for every account.
   */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    const list = await this.api('GET', `/api/v1/webhook?url=${encodeURIComponent(url)}`, 'read');
    if (list.status !== 200) throw providerErrorFor(list.status, list.body, 'list webhooks');
    const existing = ((list.body as { webhooks?: { event?: unknown; url?: unknown; isActive?: unknown }[] } | undefined)?.webhooks ?? [])
      .filter((w) => w.url === url && w.isActive !== false)
      .map((w) => w.event);
    for (const event of WEBHOOK_EVENTS.filter((e) => !existing.includes(e))) {
      const answer = await this.api('POST', '/api/v1/webhook', 'write', {
        webhook: { name: `orquestra ${event.slice('OPENPIX:'.length).toLowerCase()}`, event, url, isActive: true },
      });
      if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'register webhook');
    }
    return {};
  }

  /**
   * A MED names only the disputed Pix: `GET /api/v1/transaction/{endToEndId}` (docs "Obter uma
   * transação": the id may be Woovi's transactionID or the end-to-end id) names its charge. Woovi
   * answers an unknown one with 400 (as for charges).
   */
  async chargeOfDispute(dispute: ProviderDispute): Promise<string | undefined> {
    if (dispute.providerPaymentId) return dispute.providerPaymentId;
    if (!dispute.endToEndId) return undefined;
    const answer = await this.api('GET', `/api/v1/transaction/${encodeURIComponent(dispute.endToEndId)}`, 'read');
    if (answer.status === 400 || answer.status === 404) return undefined;
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get transaction');
    const id = (answer.body as { transaction?: { charge?: { correlationID?: unknown } } } | undefined)?.transaction?.charge?.correlationID;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  }

  /**
   * Two checks, both required: Woovi's RSA signature proves Woovi sent the body; the `hmac` secret in
   * the URL proves it was sent to this account's registration (Woovi signs every company's webhooks
   * with the same key, so a signature alone could be replayed to another account's route).
   */
  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    const signatureHeader = Object.entries(webhook.headers).find(([name]) => name.toLowerCase() === 'x-webhook-signature')?.[1];
    const signature = verifyWooviSignature(webhook.rawBody, signatureHeader, this.#publicKeys);
    if (signature !== 'valid' || !this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseWooviWebhookBody(webhook.rawBody);
    switch (parsed.kind) {
      case 'charge':
        return { ok: true, providerPaymentIds: parsed.correlationIDs, eventKey: parsed.eventKey };
      case 'dispute':
        return { ok: true, providerPaymentIds: [], eventKey: parsed.eventKey, disputes: [toProviderDispute(parsed.dispute)] };
      case 'other':
        return { ok: true, providerPaymentIds: [], eventKey: parsed.eventKey };
      case 'malformed':
        return { ok: false, reason: 'malformed', httpStatus: 400 };
    }
  }

  private sameSecret(candidate: string | undefined): boolean {
    if (candidate === undefined || this.#webhookSecret.length === 0) return false;
    // Compare digests: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
    const expected = createHash('sha256').update(this.#webhookSecret).digest();
    const actual = createHash('sha256').update(candidate).digest();
    return timingSafeEqual(expected, actual);
  }
}

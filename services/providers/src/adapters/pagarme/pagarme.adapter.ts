/**
 * Pagar.me API v5 adapter: HTTP mechanics only (Basic auth with the secret key, idempotency keys,
 * requests, transport errors). Conversions and the error table live in pagarme.transformers.ts.
 *
 * One base URL serves both modes (`https://api.pagar.me/core/v5`): the key decides (`sk_test_…` is
 * the sandbox). A Pix charge is an order with one Pix payment; we answer its charge (`ch_…`).
 * Creation is idempotent through Pagar.me's `idempotency-key` header (kept 24 h by Pagar.me).
 * Webhooks are configured in Pagar.me's dashboard only and are not signed: the URL carries our
 * per-account secret (`?hmac=`), and the caller re-reads the charge before trusting a state.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
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
import {
  buildOrderRequest,
  chargeOfOrder,
  parsePagarmeWebhookBody,
  providerErrorFor,
  toProviderCharge,
  type PagarmeCharge,
  type PagarmeCreateOrderRequest,
  type PagarmeOrder,
} from './pagarme.transformers';
import { listChargeTransactions, refundPagarmeCharge, refundsOfTransactions } from './pagarme.refunds';

/** What the request was, for classifying a failure without an answer. */
type Operation = 'create' | 'read' | 'write';

/**
 * The events the owner ticks in Pagar.me's dashboard next to our URL (and that we register in the
 * emulator): payment, expiry, cancelation, and refunds (`charge.partial_canceled` for a part,
 * `charge.refunded` for the rest). Each is only a hint: the charge is re-read.
 */
export const WEBHOOK_EVENTS = [
  'charge.paid',
  'charge.payment_failed',
  'charge.partial_canceled',
  'charge.refunded',
  'order.paid',
  'order.canceled',
  'order.payment_failed',
] as const;

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
 * A failure with no HTTP answer. Refused connections, DNS, TLS and resets mean Pagar.me did not act
 * on the request: "not created". That stays safe even if a reset hid a created order: nobody has its
 * QR code, it expires unpaid, and a repeat with the same idempotency key would answer it. No answer
 * within the timeout on a create or a write is "ambiguous": the caller must ask again with the same
 * key before moving on. A read never creates anything.
 */
export function classifyTransportError(err: unknown, operation: Operation): ProviderError {
  const code = transportCode(err);
  const what = `pagarme ${operation}: ${code}`;
  if (CONNECT_PHASE_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || RESET_CODES.has(code)) {
    return new ProviderError('not_created', 'provider_unavailable', what);
  }
  const kind = operation === 'read' ? 'not_created' : 'ambiguous';
  return new ProviderError(kind, TIMEOUT_CODES.has(code) ? 'provider_timeout' : 'provider_error', what);
}

interface Answer {
  status: number;
  body: unknown;
}

export class PagarmeAdapter implements ProviderAdapter {
  readonly provider = 'pagarme';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #agent: Agent;
  private readonly baseUrl: string;
  private readonly controlUrl: string | undefined;

  constructor(context: AdapterContext) {
    this.baseUrl = context.baseUrl.replace(/\/+$/, '');
    this.controlUrl = context.controlUrl?.replace(/\/+$/, '');
    this.#secretKey = context.credentials['secret_key'] ?? '';
    this.#webhookSecret = context.webhookSecret;
    this.#agent = new Agent({
      keepAliveTimeout: 30_000,
      // An extra CA is added to Node's roots, not substituted for them: live Pagar.me still verifies.
      connect: { timeout: context.timeoutMs, ...tlsConnectOptions({ caPem: context.caPem }) },
      headersTimeout: context.timeoutMs,
      bodyTimeout: context.timeoutMs,
    });
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#agent.close();
  }

  private async send(url: string, method: Dispatcher.HttpMethod, headers: Record<string, string>, body: unknown, operation: Operation): Promise<Answer> {
    try {
      const response = await request(url, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        dispatcher: this.#agent,
      });
      const text = await response.body.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON (an HTML page from a proxy): keep the text; it only feeds error messages.
      }
      return { status: response.statusCode, body: parsed };
    } catch (err) {
      throw classifyTransportError(err, operation);
    }
  }

  /** A `/core/v5` call with HTTP Basic `<secret key>:` (empty password). */
  private api(method: Dispatcher.HttpMethod, path: string, operation: Operation, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const basic = Buffer.from(`${this.#secretKey}:`).toString('base64');
    return this.send(`${this.baseUrl}${path}`, method, { authorization: `Basic ${basic}`, ...headers }, body, operation);
  }

  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/orders?page=1&size=1', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    let orderRequest: PagarmeCreateOrderRequest;
    try {
      orderRequest = buildOrderRequest(input);
    } catch (err) {
      // Missing customer data or an amount no provider can charge: refused before any call.
      throw new ProviderError('rejected', 'provider_rejected', `pagarme create: ${(err as Error).message}`);
    }
    // Pagar.me answers a repeated key (24 h) with the first answer, whatever the new body is.
    const answer = await this.api('POST', '/orders', 'create', orderRequest, { 'idempotency-key': input.idempotencyKey });
    if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'create order');
    const order = answer.body as PagarmeOrder;
    const charge = chargeOfOrder(order);
    if (!charge) throw new ProviderError('rejected', 'provider_rejected', `pagarme create: order ${order.id} has no charge`, answer.status);
    if (order.amount !== input.amount || charge.amount !== input.amount) {
      throw new ProviderError('rejected', 'provider_rejected', `pagarme create: idempotency key already used for an order of another amount (${order.id})`);
    }
    return this.withQrImage(toProviderCharge(charge));
  }

  /** Pagar.me gives the QR image as a URL only; the PNG is drawn here from the BR Code instead of fetched. */
  private async withQrImage(charge: ProviderCharge): Promise<ProviderCharge> {
    const qrCode = charge.nextAction.qrCode;
    if (charge.nextAction.type !== 'pix_qr' || !qrCode) return charge;
    const png = await QRCode.toBuffer(qrCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
    return { ...charge, nextAction: { ...charge.nextAction, qrCodeBase64: png.toString('base64') } };
  }

  private async readCharge(chargeId: string): Promise<PagarmeCharge> {
    const answer = await this.api('GET', `/charges/${encodeURIComponent(chargeId)}`, 'read');
    if (answer.status === 200) return answer.body as PagarmeCharge;
    throw providerErrorFor(answer.status, answer.body, 'get charge');
  }

  async getCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const raw = await this.readCharge(providerPaymentId);
    const charge = toProviderCharge(raw);
    // Refunds exist only on a charge that was paid and has something canceled.
    if (!raw.paid_at || !raw.canceled_amount) return charge;
    const refunds = refundsOfTransactions(await listChargeTransactions(this.refundApi, providerPaymentId));
    return refunds.length > 0 ? { ...charge, refunds } : charge;
  }

  private readonly refundApi = (method: 'GET' | 'DELETE', path: string, operation: Operation, body?: unknown, headers?: Record<string, string>) =>
    this.api(method, path, operation, body, headers);

  /** See pagarme.refunds.ts: DELETE /charges/{id} with our refund id as operation_reference and idempotency key. */
  refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    return refundPagarmeCharge(this.refundApi, input);
  }

  /**
   * `DELETE /charges/:id` cancels a pending charge but REFUNDS a paid one, so the charge is read
   * first and only a pending one is deleted; anything else is answered as it is (a charge paid just
   * before is answered paid). A payment landing between the read and the delete is refunded by
   * Pagar.me and answered canceled: the payer gets the money back, nothing is left inconsistent.
   */
  async cancelCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const current = await this.readCharge(providerPaymentId);
    if (current.status !== 'pending') return toProviderCharge(current);
    const answer = await this.api('DELETE', `/charges/${encodeURIComponent(providerPaymentId)}`, 'write', undefined, {
      // A repeat of this cancel (after a timeout) replays the first answer instead of acting again.
      'idempotency-key': `orquestra:cancel:${providerPaymentId}`,
    });
    if (answer.status === 200) return toProviderCharge(answer.body as PagarmeCharge);
    // 412/422: no longer cancelable (paid, failed or canceled meanwhile): answer it as it is now.
    if (answer.status === 412 || answer.status === 422) return this.getCharge(providerPaymentId);
    throw providerErrorFor(answer.status, answer.body, 'cancel charge');
  }

  async simulatePaid(providerPaymentId: string): Promise<void> {
    if (!this.controlUrl) {
      throw new ProviderError('rejected', 'provider_rejected', 'pagarme simulatePaid: only the sandbox emulator can simulate payments');
    }
    const url = `${this.controlUrl}/__control/charges/${encodeURIComponent(providerPaymentId)}/pay`;
    const answer = await this.send(url, 'POST', {}, {}, 'write');
    if (answer.status === 200) return;
    if (answer.status === 404) throw new ProviderError('not_found', 'not_found', `pagarme simulatePaid: no charge ${providerPaymentId}`, 404);
    throw new ProviderError('rejected', 'provider_rejected', `pagarme simulatePaid: HTTP ${answer.status}`, answer.status);
  }

  /**
   * Pagar.me has no webhook API: the owner pastes `url` (which carries our secret) in the dashboard,
   * so this always answers manualSetupRequired. Against the emulator the URL is also set through
   * its control API, as the owner would in the dashboard.
   */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    if (this.controlUrl) {
      const answer = await this.send(`${this.controlUrl}/__control/webhook`, 'POST', {}, { account: this.#secretKey, url, events: [...WEBHOOK_EVENTS] }, 'write');
      if (answer.status !== 200) {
        throw new ProviderError('rejected', 'provider_rejected', `pagarme registerWebhook (emulator): HTTP ${answer.status}`, answer.status);
      }
    }
    return { manualSetupRequired: true };
  }

  /**
   * Pagar.me v5 documents no webhook signature and no timestamp to bound replays, so the secret in
   * the URL authenticates and the hook id (the same across Pagar.me's retries) dedupes replays.
   */
  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    if (!this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parsePagarmeWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, providerPaymentIds: parsed.chargeIds, eventKey: parsed.eventKey };
  }

  private sameSecret(candidate: string | undefined): boolean {
    if (candidate === undefined || this.#webhookSecret.length === 0) return false;
    // Compare digests: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
    const expected = createHash('sha256').update(this.#webhookSecret).digest();
    const actual = createHash('sha256').update(candidate).digest();
    return timingSafeEqual(expected, actual);
  }
}

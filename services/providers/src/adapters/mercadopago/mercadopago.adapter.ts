/**
 * Mercado Pago adapter: HTTP mechanics only (Bearer access token, requests, transport errors).
 * Conversions and the error table live in mercadopago.transformers.ts, webhook checks in
 * mercadopago.webhook.ts.
 *
 * Pix charges are `POST /v1/payments` with `payment_method_id: "pix"` and the mandatory
 * `X-Idempotency-Key` (derived from our idempotency key), which makes creation idempotent: a
 * repeat answers the payment the first request made. Webhooks go to each payment's
 * `notification_url` (Mercado Pago has no webhook-registration API) and are verified with the
 * account's "assinatura secreta" (credential `webhook_secret`).
 */
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
  buildPixRequest,
  idempotencyHeaderFor,
  notificationUrlFor,
  providerErrorFor,
  reaisToCents,
  serializePixRequest,
  toProviderCharge,
  type MercadoPagoPayment,
} from './mercadopago.transformers';
import { refundMercadoPagoPayment } from './mercadopago.refunds';
import { parseMercadoPagoWebhook, SIGNATURE_TOLERANCE_SECONDS } from './mercadopago.webhook';

/** What the request was, for classifying a failure without an answer. */
type Operation = 'create' | 'read' | 'write';

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
 * A failure with no HTTP answer. Refused, DNS, TLS and resets mean "not created": if a reset hid a
 * created payment, nobody holds its QR code (it expires unpaid) and a repeat on this account with
 * the same X-Idempotency-Key answers that payment. No answer within the timeout on a create is
 * "ambiguous": the caller must repeat it here (same key) before moving to another account.
 */
export function classifyTransportError(err: unknown, operation: Operation): ProviderError {
  const code = transportCode(err);
  const what = `mercadopago ${operation}: ${code}`;
  if (CONNECT_PHASE_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || RESET_CODES.has(code)) {
    return new ProviderError('not_created', 'provider_unavailable', what);
  }
  if (TIMEOUT_CODES.has(code)) return new ProviderError(operation === 'read' ? 'not_created' : 'ambiguous', 'provider_timeout', what);
  return new ProviderError(operation === 'read' ? 'not_created' : 'ambiguous', 'provider_error', what);
}

interface Answer {
  status: number;
  body: unknown;
}

export class MercadoPagoAdapter implements ProviderAdapter {
  readonly provider = 'mercadopago';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #accessToken: string;
  readonly #webhookSecret: string | undefined;
  readonly #urlSecret: string;
  /** Carries our per-account secret in `?hmac=`. */
  readonly #webhookUrl: string;
  readonly #agent: Agent;
  private readonly baseUrl: string;
  private readonly controlUrl: string | undefined;
  private readonly timeoutMs: number;
  private readonly toleranceSeconds: number;

  constructor(context: AdapterContext) {
    this.baseUrl = context.baseUrl.replace(/\/+$/, '');
    this.controlUrl = context.controlUrl?.replace(/\/+$/, '');
    this.#webhookUrl = context.webhookUrl;
    this.timeoutMs = context.timeoutMs;
    this.#accessToken = context.credentials['access_token'] ?? '';
    // The secret Mercado Pago signs with is a credential (copied from its dashboard).
    this.#webhookSecret = context.credentials['webhook_secret'] || context.signingSecret;
    this.#urlSecret = context.webhookSecret;
    const tolerance = Number(context.settings['webhook_tolerance_seconds'] ?? SIGNATURE_TOLERANCE_SECONDS);
    this.toleranceSeconds = Number.isFinite(tolerance) && tolerance >= 0 ? tolerance : SIGNATURE_TOLERANCE_SECONDS;
    this.#agent = new Agent({
      keepAliveTimeout: 30_000,
      connect: {
        // An extra CA is added to Node's roots, not substituted for them: the live API still verifies.
        ...tlsConnectOptions({ caPem: context.caPem }),
        timeout: context.timeoutMs,
      },
      headersTimeout: context.timeoutMs,
      bodyTimeout: context.timeoutMs,
    });
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#agent.close();
  }

  private async send(url: string, method: Dispatcher.HttpMethod, operation: Operation, headers: Record<string, string>, body?: string): Promise<Answer> {
    try {
      const response = await request(url, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
        dispatcher: this.#agent,
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

  private api(method: Dispatcher.HttpMethod, path: string, operation: Operation, body?: string, extraHeaders: Record<string, string> = {}): Promise<Answer> {
    return this.send(`${this.baseUrl}${path}`, method, operation, { authorization: `Bearer ${this.#accessToken}`, accept: 'application/json', ...extraHeaders }, body);
  }

  /** `GET /users/me`: the cheapest read that needs a valid access token. */
  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/users/me', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    if (input.method !== 'pix') {
      throw new ProviderError('rejected', 'provider_rejected', `mercadopago adapter supports pix only, not ${input.method}`);
    }
    let body: string;
    try {
      body = serializePixRequest(buildPixRequest(input, notificationUrlFor(this.#webhookUrl), new Date()), input.amount);
    } catch (err) {
      // No payer e-mail or an amount that is not positive cents: no Mercado Pago account accepts it.
      throw new ProviderError('rejected', 'provider_rejected', `mercadopago create: ${(err as Error).message}`);
    }
    const answer = await this.api('POST', '/v1/payments', 'create', body, { 'x-idempotency-key': idempotencyHeaderFor(input.idempotencyKey) });
    if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'create payment');
    const payment = answer.body as MercadoPagoPayment;
    // A repeated key answers the first payment: one of another amount means the key was reused.
    if (reaisToCents(payment.transaction_amount) !== input.amount) {
      throw new ProviderError('rejected', 'provider_rejected', `mercadopago create: idempotency key already holds payment ${payment.id} of another amount`);
    }
    return toProviderCharge(payment);
  }

  async getCharge(providerPaymentId: string): Promise<ProviderCharge> {
    return toProviderCharge(await this.readPayment(providerPaymentId));
  }

  private async readPayment(providerPaymentId: string): Promise<MercadoPagoPayment> {
    if (!/^\d{1,19}$/.test(providerPaymentId)) throw new ProviderError('not_found', 'not_found', `mercadopago: ${providerPaymentId} is not a payment id`);
    const answer = await this.api('GET', `/v1/payments/${providerPaymentId}`, 'read');
    if (answer.status === 200) return answer.body as MercadoPagoPayment;
    throw providerErrorFor(answer.status, answer.body, 'get payment');
  }

  async cancelCharge(providerPaymentId: string): Promise<ProviderCharge> {
    if (!/^\d{1,19}$/.test(providerPaymentId)) throw new ProviderError('not_found', 'not_found', `mercadopago: ${providerPaymentId} is not a payment id`);
    const answer = await this.api('PUT', `/v1/payments/${providerPaymentId}`, 'write', JSON.stringify({ status: 'cancelled' }));
    if (answer.status === 200) return toProviderCharge(answer.body as MercadoPagoPayment);
    const error = providerErrorFor(answer.status, answer.body, 'cancel payment');
    // Refused because it is no longer pending (paid, expired, already cancelled): answer the
    // payment as it is, so a caller canceling a charge that was just paid learns it was paid.
    if (error.kind === 'rejected') {
      const current = await this.getCharge(providerPaymentId);
      if (current.status !== 'pending') return current;
    }
    throw error;
  }

  /** See mercadopago.refunds.ts: our refund id is the X-Idempotency-Key. */
  refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    return refundMercadoPagoPayment((method, path, operation, body, headers) => this.api(method, path, operation, body, headers), input);
  }

  async simulatePaid(providerPaymentId: string): Promise<void> {
    if (!this.controlUrl) {
      throw new ProviderError('rejected', 'provider_rejected', 'mercadopago simulatePaid: only the sandbox emulator can simulate payments');
    }
    const answer = await this.send(`${this.controlUrl}/__control/charges/${encodeURIComponent(providerPaymentId)}/pay`, 'POST', 'write', {});
    if (answer.status === 200) return;
    if (answer.status === 404) throw new ProviderError('not_found', 'not_found', `mercadopago simulatePaid: no payment ${providerPaymentId}`, 404);
    throw new ProviderError('rejected', 'provider_rejected', `mercadopago simulatePaid: HTTP ${answer.status}`, answer.status);
  }

  /**
   * Nothing to call: Mercado Pago has no API for webhook URLs (they live in the dashboard), and
   * every payment carries our URL as `notification_url`. The signing secret is the account's
   * `webhook_secret` credential, so there is nothing new to keep either.
   */
  registerWebhook(_url: string): Promise<WebhookRegistration> {
    return Promise.resolve({});
  }

  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    return parseMercadoPagoWebhook(webhook, {
      secret: this.#webhookSecret,
      urlSecret: this.#urlSecret,
      nowMs: Date.now(),
      toleranceSeconds: this.toleranceSeconds,
    });
  }
}

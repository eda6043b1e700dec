/**
 * Mercado Pago adapter: its own HTTP parts only (Bearer access token, requests); the pool and the
 * wire table are http/provider-http.ts.
 * Conversions and the error table live in mercadopago.transformers.ts, webhook checks in
 * mercadopago.webhook.ts.
 *
 * Pix charges are `POST /v1/payments` with `payment_method_id: "pix"` and the mandatory
 * `X-Idempotency-Key` (derived from our idempotency key), which makes creation idempotent: a
 * repeat answers the payment the first request made. Webhooks go to each payment's
 * `notification_url` (Mercado Pago has no webhook-registration API) and are verified with the
 * account's "assinatura secreta" (credential `webhook_secret`).
 */
import type { Dispatcher } from 'undici';
import { accountHttp, type HttpAnswer, type ProviderHttp } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import {
  ProviderError,
  refuseOtherMethods,
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
  reaisToCents,
  serializePixRequest,
  toProviderCharge,
  type MercadoPagoPayment,
} from './mercadopago.transformers';
import { providerErrorFor } from './mercadopago.errors';
import { refundMercadoPagoPayment } from './mercadopago.refunds';
import { parseMercadoPagoWebhook, SIGNATURE_TOLERANCE_SECONDS } from './mercadopago.webhook';

export class MercadoPagoAdapter implements ProviderAdapter {
  static readonly methods = ['pix'] as const;
  readonly provider = 'mercadopago';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #accessToken: string;
  readonly #webhookSecret: string | undefined;
  readonly #urlSecret: string;
  /** Carries our per-account secret in `?hmac=`. */
  readonly #webhookUrl: string;
  readonly #http: ProviderHttp;
  private readonly toleranceSeconds: number;

  constructor(context: AdapterContext) {
    this.#webhookUrl = context.webhookUrl;
    this.#accessToken = context.credentials['access_token'] ?? '';
    // The secret Mercado Pago signs with is a credential (copied from its dashboard).
    this.#webhookSecret = context.credentials['webhook_secret'] || context.signingSecret;
    this.#urlSecret = context.webhookSecret;
    const tolerance = Number(context.settings['webhook_tolerance_seconds'] ?? SIGNATURE_TOLERANCE_SECONDS);
    this.toleranceSeconds = Number.isFinite(tolerance) && tolerance >= 0 ? tolerance : SIGNATURE_TOLERANCE_SECONDS;
    this.#http = accountHttp(this.provider, context);
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#http.close();
  }

  private api(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'read' | 'write', body?: string, extraHeaders: Record<string, string> = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#accessToken}`, accept: 'application/json', ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.#http.send({ method, path, purpose, headers, ...(body === undefined ? {} : { body }) });
  }

  /** `GET /users/me`: the cheapest read that needs a valid access token. */
  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/users/me', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    refuseOtherMethods(this.provider, MercadoPagoAdapter.methods, input.method);
    let body: string;
    try {
      body = serializePixRequest(buildPixRequest(input, notificationUrlFor(this.#webhookUrl), new Date()), input.amount);
    } catch (err) {
      // No payer e-mail or an amount that is not positive cents: no Mercado Pago account accepts it.
      throw new ProviderError('rejected', 'provider_rejected', `mercadopago create: ${(err as Error).message}`);
    }
    const answer = await this.api('POST', '/v1/payments', { operation: 'create', method: input.method }, body, { 'x-idempotency-key': idempotencyHeaderFor(input.idempotencyKey) });
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

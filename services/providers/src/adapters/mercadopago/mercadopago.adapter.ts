/**
 * Mercado Pago adapter: its own HTTP parts only (Bearer access token, requests); the pool and the
 * wire table are http/provider-http.ts.
 * Conversions and the error table live in mercadopago.transformers.ts, webhook checks in
 * mercadopago.webhook.ts.
 *
 * Pix charges are `POST /v1/payments` with `payment_method_id: "pix"` and the mandatory
 * `X-Idempotency-Key` (derived from our idempotency key), which makes creation idempotent: a
 * repeat answers the payment the first request made. Boleto is the same call with
 * `payment_method_id: "bolbradesco"` (payer CPF/CNPJ and address required). A vault card is first
 * tokenized at the account (`POST /v1/card_tokens`: number, expiry, security code, holder; the
 * token is single use and works only on this account), then paid with `token`, `installments` and
 * the brand as `payment_method_id`; a refused card is a `rejected` payment, answered as a failed
 * charge with our decline code. The card's number and security code exist only in the one request
 * body: never in an error, log or metric (the HTTP core records method, path and status only).
 * A card token the account's own MercadoPago.js minted (`card.token`, with `card.brand`) is paid
 * the same way without the tokenization step.
 * Card chargebacks arrive by the `chargebacks` notification topic and are read back with
 * `GET /v1/chargebacks/{id}` (mercadopago.chargebacks.ts); the defense goes as a PDF of its text and
 * links to `POST /v1/chargebacks/{id}/documentation` (mercadopago.evidence.ts).
 * Webhooks go to each payment's
 * `notification_url` (Mercado Pago has no webhook-registration API) and are verified with the
 * account's "assinatura secreta" (credential `webhook_secret`).
 */
import { assertNever } from '@orquestra/platform';
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
  buildBoletoRequest,
  buildCardRequest,
  buildCardTokenRequest,
  buildPixRequest,
  idempotencyHeaderFor,
  notificationUrlFor,
  reaisToCents,
  serializePaymentRequest,
  toProviderCharge,
  type MercadoPagoCardToken,
  type MercadoPagoPayment,
} from './mercadopago.transformers';
import { providerErrorFor } from './mercadopago.errors';
import {
  decodeMercadoPagoListCursor,
  MERCADOPAGO_LIST_PAGE_SIZE,
  MERCADOPAGO_LIST_PAGE_SIZE_MAX,
  mercadoPagoSearchPage,
  mercadoPagoSearchPath,
  type MercadoPagoSearchAnswer,
} from './mercadopago.listing';
import type { ChargeListingCapable, ChargePage, ChargePeriod } from '../provider-charge-listing';
import { refundMercadoPagoPayment } from './mercadopago.refunds';
import { CHARGEBACK_ID, CHARGEBACK_TOPICS, chargebackOf, toProviderDispute } from './mercadopago.chargebacks';
import type { DisputeEvidenceInput, ProviderDispute } from '../provider-disputes';
import { documentationUpload } from './mercadopago.evidence';
import { parseMercadoPagoWebhook, SIGNATURE_TOLERANCE_SECONDS } from './mercadopago.webhook';

export class MercadoPagoAdapter implements ProviderAdapter, ChargeListingCapable {
  static readonly methods = ['pix', 'boleto', 'card'] as const;
  /** Vault cards are tokenized with `POST /v1/card_tokens`, which takes the security code: without it no token, no charge. */
  static readonly vaultCards = { needsCvc: true } as const;
  /** Chargebacks are announced by the `chargebacks` topic and read back (mercadopago.chargebacks.ts). */
  static readonly disputeEvents = CHARGEBACK_TOPICS;
  readonly provider = 'mercadopago';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #accessToken: string;
  readonly #webhookSecret: string | undefined;
  readonly #urlSecret: string;
  /** Carries our per-account secret in `?hmac=`. */
  readonly #webhookUrl: string;
  readonly #http: ProviderHttp;
  private readonly toleranceSeconds: number;
  /** Payments per page of the search for reconciliation (setting `list_page_size`). */
  private readonly listPageSize: number;

  constructor(context: AdapterContext) {
    const pageSize = Number(context.settings['list_page_size'] ?? MERCADOPAGO_LIST_PAGE_SIZE);
    this.listPageSize = Number.isSafeInteger(pageSize) ? Math.min(Math.max(pageSize, 1), MERCADOPAGO_LIST_PAGE_SIZE_MAX) : MERCADOPAGO_LIST_PAGE_SIZE;
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
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    return this.#http.send({ method, path, purpose, headers, ...(body === undefined ? {} : { body }) });
  }

  /** `GET /users/me`: the cheapest read that needs a valid access token. */
  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/users/me', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    refuseOtherMethods(this.provider, MercadoPagoAdapter.methods, input.method);
    const notificationUrl = notificationUrlFor(this.#webhookUrl);
    let body: string;
    try {
      body = await this.paymentBody(input, notificationUrl);
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      // No payer e-mail, no document/address for boleto, a brand Mercado Pago does not take, an
      // amount that is not positive cents: no Mercado Pago account accepts it. The message is ours
      // (never the card's data).
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

  /** The `POST /v1/payments` body for the method (a card is tokenized at the account first). */
  private async paymentBody(input: CreateChargeInput, notificationUrl: string): Promise<string> {
    switch (input.method) {
      case 'pix':
        return serializePaymentRequest(buildPixRequest(input, notificationUrl, new Date()), input.amount);
      case 'boleto':
        return serializePaymentRequest(buildBoletoRequest(input, notificationUrl, new Date()), input.amount);
      case 'card': {
        const card = input.card?.vaultCard;
        const ownToken = input.card?.token;
        // A token the account's own MercadoPago.js / Bricks minted: paid as it is (its brand must be named).
        if (!card && ownToken) return serializePaymentRequest(buildCardRequest(input, ownToken, input.card?.brand ?? '', notificationUrl), input.amount);
        if (!card) throw new RangeError('a card payment needs a vault card or a card token of this account');
        if (!card.cvc) throw new RangeError('Mercado Pago tokenizes a card only with its security code, which is no longer kept');
        // Validate what needs no request first, so a brand it does not take costs no token.
        buildCardRequest(input, 'probe', card.brand, notificationUrl);
        const token = await this.createCardToken(input);
        return serializePaymentRequest(buildCardRequest(input, token, card.brand, notificationUrl), input.amount);
      }
      default:
        return assertNever(input.method);
    }
  }

  /** `POST /v1/card_tokens` for the vault card: the token's id. Errors carry status and cause codes only. */
  private async createCardToken(input: CreateChargeInput): Promise<string> {
    const card = input.card?.vaultCard;
    if (!card) throw new RangeError('no vault card');
    // A `prepare`: a token charges nothing, so whatever goes wrong here no charge exists yet.
    const answer = await this.api('POST', '/v1/card_tokens', { operation: 'prepare' }, JSON.stringify(buildCardTokenRequest(card, input.customer.document)));
    if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'create card token', { withMessage: false });
    const token = (answer.body as MercadoPagoCardToken | undefined)?.id;
    if (typeof token !== 'string' || token.length === 0) throw new ProviderError('rejected', 'provider_error', 'mercadopago create card token: answer without an id');
    return token;
  }

  /** One page of the payments created in the period, oldest first (mercadopago.listing.ts). */
  async listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage> {
    const offset = decodeMercadoPagoListCursor(cursor);
    const answer = await this.api('GET', mercadoPagoSearchPath(period, offset, this.listPageSize), 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'search payments');
    return mercadoPagoSearchPage(answer.body as MercadoPagoSearchAnswer, period, offset, this.listPageSize);
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
   * `GET /v1/chargebacks/{id}`: the chargeback a notification named, as Mercado Pago has it now
   * (mercadopago.chargebacks.ts). Undefined for one whose documentation status we do not know.
   */
  async readDispute(providerDisputeId: string): Promise<ProviderDispute | undefined> {
    if (!CHARGEBACK_ID.test(providerDisputeId)) throw new ProviderError('not_found', 'not_found', `mercadopago: ${providerDisputeId} is not a chargeback id`);
    const answer = await this.api('GET', `/v1/chargebacks/${providerDisputeId}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get chargeback');
    const read = chargebackOf(answer.body);
    if (read.ok) return toProviderDispute(read.chargeback);
    if (read.reason === 'unknown_status') return undefined;
    throw new ProviderError('rejected', 'provider_error', 'mercadopago get chargeback: unreadable answer');
  }

  /**
   * `POST /v1/chargebacks/{id}/documentation`: the text and links as one PDF in `files[]`
   * (mercadopago.evidence.ts). A chargeback no longer taking documents is refused (rejected).
   */
  async submitDisputeEvidence(input: DisputeEvidenceInput): Promise<void> {
    if (!CHARGEBACK_ID.test(input.providerDisputeId)) throw new ProviderError('not_found', 'not_found', `mercadopago: ${input.providerDisputeId} is not a chargeback id`);
    let upload: { body: string; contentType: string };
    try {
      upload = documentationUpload(input);
    } catch (err) {
      throw new ProviderError('rejected', 'provider_rejected', `mercadopago chargeback documentation: ${(err as Error).message}`);
    }
    const answer = await this.api('POST', `/v1/chargebacks/${input.providerDisputeId}/documentation`, 'write', upload.body, { 'content-type': upload.contentType });
    if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'send chargeback documentation');
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

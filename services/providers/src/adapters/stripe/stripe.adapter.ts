/**
 * Stripe (Brazil) adapter: Stripe's own HTTP parts only (Bearer secret key, form bodies,
 * `Idempotency-Key`, pinned `Stripe-Version`); the pool and the wire table are http/provider-http.ts. Conversions and the error table
 * live in stripe.transformers.ts; webhook signatures in stripe.webhook.ts.
 *
 * Pix, boleto and card are each a PaymentIntent created and confirmed in one call (a vault card is
 * made a PaymentMethod first, stripe.vault-card.ts); creation is idempotent through
 * Stripe's `Idempotency-Key` (the first answer for a key is replayed for 24 h). No retries happen
 * here: the caller's breaker and failover decide, using the error kind.
 *
 * Over 300 lines as the one class an account's adapter is: refunds, disputes, listing, payouts,
 * splits and vault cards live in their own stripe.*.ts files and are delegated to; what stays is
 * Stripe's PaymentIntent calls.
 */
import { assertNever } from '@orquestra/platform';
import type { ChargeListingCapable, ChargePage, ChargePeriod } from '../provider-charge-listing';
import { listStripeCharges, STRIPE_MAX_LIST_LIMIT } from './stripe.listing';
import { accountHttp, type HttpAnswer, type ProviderHttp } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
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
  STRIPE_API_VERSION,
  buildBoletoIntentParams,
  buildCardIntentParams,
  buildPixIntentParams,
  stripeIdempotencyKey,
  toProviderCharge,
  type StripeList,
  type StripePaymentIntent,
  type StripeWebhookEndpoint,
} from './stripe.transformers';
import { declinedCharge, unknownCardToken, providerErrorFor } from './stripe.errors';
import { encodeForm, type FormValue } from './stripe.form-encoding';
import { BOLETO_DUE_DAYS } from '../../domain/boleto-due-date';
import { headerValue, parseStripeEvent, verifyStripeSignature } from './stripe.webhook';
import { listIntentRefunds, refundStripePaymentIntent, toProviderRefund } from './stripe.refunds';
import { DISPUTE_EVENTS, submitStripeDisputeEvidence, toProviderDispute } from './stripe.disputes';
import type { DisputeEvidenceInput } from '../provider-disputes';
import type { CreateTransferInput, PayoutCapable, ProviderBalance, ProviderTransfer, TransferWebhookParseResult } from '../provider-payouts';
import { PAYOUT_EVENTS, StripePayouts, payoutOfEvent } from './stripe.payouts';
import type {
  CreateSubaccountInput,
  OnboardingLink,
  ProviderSubaccount,
  SubaccountBalance,
  SubaccountCapable,
  SubaccountWebhookParseResult,
  SubaccountWithdrawalInput,
  SubaccountWithdrawalLookup,
} from '../provider-subaccounts';
import { destinationParams } from './stripe.splits';
import { createVaultPaymentMethod } from './stripe.vault-card';
import {
  DEFAULT_ONBOARDING_REFRESH_URL,
  DEFAULT_ONBOARDING_RETURN_URL,
  ONBOARDING_REFRESH_URL_SETTING,
  ONBOARDING_RETURN_URL_SETTING,
  STRIPE_SUBACCOUNT_REQUIREMENTS,
  connectedAccountsOfEvent,
  createStripeSubaccount,
  getStripeSubaccount,
  registerStripeConnectEndpoint,
  stripeOnboardingLink,
  stripeSubaccountBalance,
} from './stripe.subaccounts';

/** The events that move one of our charges, and card disputes on them. */
export const WEBHOOK_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.processing',
  // Refunds (ours and those made in the dashboard): created, and every later change.
  'charge.refunded',
  'refund.created',
  'refund.updated',
  'refund.failed',
  // Card disputes (chargebacks and inquiries): opened, every change, closed (stripe.disputes.ts).
  ...DISPUTE_EVENTS,
  // Payouts: each change of a payout's status (stripe.payouts.ts).
  ...PAYOUT_EVENTS,
] as const;

/** `settings.list_page_size`: a smaller page for listCharges than Stripe's largest (tests use it). */
function listPageSize(settings: Record<string, string>): number {
  const asked = Number(settings['list_page_size']);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, STRIPE_MAX_LIST_LIMIT) : STRIPE_MAX_LIST_LIMIT;
}

export class StripeAdapter implements ProviderAdapter, PayoutCapable, SubaccountCapable, ChargeListingCapable {
  static readonly methods = ['pix', 'boleto', 'card'] as const;
  /** Connect Express accounts: Stripe collects the rest in its onboarding (stripe.subaccounts.ts). */
  static readonly subaccountRequirements = STRIPE_SUBACCOUNT_REQUIREMENTS;
  /** Payouts go to the bank account registered at Stripe only (stripe.payouts.ts). */
  static readonly payoutDestinations = ['account'] as const;
  readonly payoutDestinations = StripeAdapter.payoutDestinations;
  /** Card disputes arrive by webhook (stripe.disputes.ts). */
  static readonly disputeEvents = DISPUTE_EVENTS;
  /**
   * One split part per charge: a destination charge has one `transfer_data[destination]`
   * (stripe.splits.ts); more parts would need separate transfers, which we do not make.
   */
  static readonly maxSplits = 1;
  /** Vault cards become PaymentMethods (`POST /v1/payment_methods`); Stripe charges them without the CVC. */
  static readonly vaultCards = { needsCvc: false } as const;
  readonly provider = 'stripe';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #secretKey: string;
  readonly #signingSecret: string;
  readonly #http: ProviderHttp;
  readonly #listPageSize: number;
  readonly #payouts: StripePayouts;
  readonly #onboardingUrls: { returnUrl: string; refreshUrl: string };

  constructor(context: AdapterContext) {
    this.#secretKey = context.credentials['secret_key'] ?? '';
    this.#signingSecret = context.signingSecret ?? '';
    this.#http = accountHttp(this.provider, context);
    this.#listPageSize = listPageSize(context.settings);
    this.#onboardingUrls = {
      returnUrl: context.settings[ONBOARDING_RETURN_URL_SETTING] || DEFAULT_ONBOARDING_RETURN_URL,
      refreshUrl: context.settings[ONBOARDING_REFRESH_URL_SETTING] || DEFAULT_ONBOARDING_REFRESH_URL,
    };
    this.#payouts = new StripePayouts((method, path, purpose, params, key, connected) => this.api(method, path, purpose, params, key, connected));
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#http.close();
  }

  /** A `/v1` call: Bearer secret key, pinned version, form body on POST; as a connected account with `Stripe-Account`. */
  private api(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    purpose: RequestPurpose | 'read' | 'write',
    params?: Record<string, FormValue>,
    idempotencyKey?: string,
    connectedAccount?: string,
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#secretKey}`, 'stripe-version': STRIPE_API_VERSION };
    if (idempotencyKey) headers['idempotency-key'] = stripeIdempotencyKey(idempotencyKey);
    if (connectedAccount) headers['stripe-account'] = connectedAccount;
    if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      return this.#http.send({ method, path, purpose, headers, body: encodeForm(params ?? {}) });
    }
    const query = params ? `?${encodeForm(params)}` : '';
    return this.#http.send({ method, path: `${path}${query}`, purpose, headers });
  }

  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/v1/payment_intents', 'read', { limit: 1 });
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    // A vault card is first created at Stripe as this account's PaymentMethod (stripe.vault-card.ts).
    const vaultCard = input.method === 'card' ? input.card?.vaultCard : undefined;
    const paymentMethodId = vaultCard ? await createVaultPaymentMethod((m, p, purpose, params, key) => this.api(m, p, purpose, params, key), vaultCard, input.idempotencyKey) : undefined;
    let params: Record<string, FormValue>;
    try {
      params = { ...intentParams(input, paymentMethodId), ...destinationParams(input) };
    } catch (err) {
      throw new ProviderError('rejected', 'provider_rejected', `stripe create: ${(err as Error).message}`);
    }
    const answer = await this.api('POST', '/v1/payment_intents', { operation: 'create', method: input.method }, params, input.idempotencyKey);
    if (answer.status === 200) return toProviderCharge(answer.body as StripePaymentIntent);
    const declined = declinedCharge(answer.status, answer.body);
    if (declined) return declined;
    throw unknownCardToken(answer.status, answer.body) ?? providerErrorFor(answer.status, answer.body, 'create payment intent');
  }

  /** Stripe's PaymentIntents of the period, newest first, with fee and refunds of the latest charge (stripe.listing.ts). */
  listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage> {
    return listStripeCharges((path, params) => this.api('GET', path, 'read', params), period, cursor, this.#listPageSize);
  }

  async getCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const answer = await this.api('GET', `/v1/payment_intents/${encodeURIComponent(providerPaymentId)}`, 'read', {
      expand: ['latest_charge.balance_transaction'],
    });
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get payment intent');
    const intent = answer.body as StripePaymentIntent;
    const charge = toProviderCharge(intent);
    if (intent.status !== 'succeeded') return charge;
    // Only a paid intent can have refunds; they are read with it so a sync sees every one.
    const refunds = await listIntentRefunds(this.refundApi, providerPaymentId);
    return refunds.length > 0 ? { ...charge, refunds: refunds.map(toProviderRefund) } : charge;
  }

  private readonly refundApi = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', params?: Record<string, FormValue>, key?: string, connectedAccount?: string) =>
    this.api(method, path, operation, params, key, connectedAccount);

  /** See stripe.refunds.ts: our refund id is the Idempotency-Key and rides in the refund's metadata. */
  refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    return refundStripePaymentIntent(this.refundApi, input);
  }

  /** `POST /v1/disputes/{id}` with `evidence[uncategorized_text]` and `submit=true` (stripe.disputes.ts). */
  async submitDisputeEvidence(input: DisputeEvidenceInput): Promise<void> {
    try {
      await submitStripeDisputeEvidence(this.refundApi, input);
    } catch (err) {
      if (err instanceof RangeError) throw new ProviderError('rejected', 'provider_rejected', `stripe dispute evidence: ${err.message}`);
      throw err;
    }
  }

  async cancelCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const answer = await this.api('POST', `/v1/payment_intents/${encodeURIComponent(providerPaymentId)}/cancel`, 'write', {
      expand: ['latest_charge.balance_transaction'],
    });
    if (answer.status === 200) return toProviderCharge(answer.body as StripePaymentIntent);
    // Succeeded or already canceled: answer the charge as it is, so a caller canceling a charge
    // that was just paid learns it was paid.
    const code = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (answer.status === 400 && code === 'payment_intent_unexpected_state') return this.getCharge(providerPaymentId);
    throw providerErrorFor(answer.status, answer.body, 'cancel payment intent');
  }

  /**
   * Creates a webhook endpoint for `url` and answers the signing secret Stripe shows only in this
   * answer. Older endpoints of the same URL (an earlier registration of this account) are deleted
   * afterwards, so each event arrives once, signed with the secret we keep.
   */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    const created = await this.api('POST', '/v1/webhook_endpoints', 'write', {
      url,
      enabled_events: [...WEBHOOK_EVENTS],
      api_version: STRIPE_API_VERSION,
      description: 'Orquestra',
    });
    const endpoint = created.body as Partial<StripeWebhookEndpoint> | undefined;
    if (created.status !== 200) throw providerErrorFor(created.status, created.body, 'create webhook endpoint');
    if (typeof endpoint?.secret !== 'string' || !endpoint.secret) {
      throw new ProviderError('ambiguous', 'provider_error', 'stripe create webhook endpoint: answer without secret', created.status);
    }
    await this.deleteOtherEndpoints(url, endpoint.id ?? '');
    return { signingSecret: endpoint.secret };
  }

  private async deleteOtherEndpoints(url: string, keepId: string): Promise<void> {
    const target = withoutQuery(url);
    // A leftover endpoint only means duplicate deliveries, which dedupe: a failed listing is let be.
    const listed = await this.api('GET', '/v1/webhook_endpoints', 'read', { limit: 100 }).catch(() => undefined);
    if (listed?.status !== 200) return;
    for (const other of (listed.body as StripeList<StripeWebhookEndpoint>).data ?? []) {
      if (other.id !== keepId && withoutQuery(other.url) === target) {
        await this.api('DELETE', `/v1/webhook_endpoints/${encodeURIComponent(other.id)}`, 'write');
      }
    }
  }

  private authentic(webhook: WebhookRequest): boolean {
    return verifyStripeSignature(webhook.rawBody, headerValue(webhook.headers, 'stripe-signature'), this.#signingSecret, Math.floor(Date.now() / 1000)) === 'valid';
  }

  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const event = parseStripeEvent(webhook.rawBody);
    if (event.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return {
      ok: true,
      providerPaymentIds: event.paymentIntentIds,
      eventKey: `stripe:${event.eventId}`,
      ...(event.dispute ? { disputes: [toProviderDispute(event.dispute)] } : {}),
    };
  }

  // --- Payouts (stripe.payouts.ts) -----------------------------------------------------------

  getBalance(): Promise<ProviderBalance> {
    return this.#payouts.balance();
  }

  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    return this.#payouts.create(input);
  }

  getTransfer(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return this.#payouts.get(input.payoutId, input.providerTransferId);
  }

  /** `payout.*` events through the same endpoint and signature as every other event. */
  parseTransferWebhook(webhook: WebhookRequest): TransferWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const event = parseStripeEvent(webhook.rawBody);
    if (event.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, eventKey: `stripe:${event.eventId}`, transfers: payoutOfEvent(webhook.rawBody) };
  }

  // --- Connect subaccounts (stripe.subaccounts.ts) ---------------------------------------------

  /** An Express account; idempotent on our subaccount id (the Idempotency-Key). */
  createSubaccount(input: CreateSubaccountInput): Promise<ProviderSubaccount> {
    return createStripeSubaccount(this.refundApi, input);
  }

  getSubaccount(providerSubaccountId: string): Promise<ProviderSubaccount> {
    return getStripeSubaccount(this.refundApi, providerSubaccountId);
  }

  /** Stripe's hosted onboarding (`POST /v1/account_links`, type account_onboarding). */
  onboardingLink(providerSubaccountId: string): Promise<OnboardingLink> {
    return stripeOnboardingLink(this.refundApi, providerSubaccountId, this.#onboardingUrls);
  }

  getSubaccountBalance(providerSubaccountId: string): Promise<SubaccountBalance> {
    return stripeSubaccountBalance(this.refundApi, providerSubaccountId);
  }

  /**
   * The connected account's own payout (`POST /v1/payouts` with `Stripe-Account`) from its balance
   * to the bank account it gave Stripe in onboarding (Stripe pays no Pix key); idempotent by our
   * payout id (Idempotency-Key and metadata), as the platform's payouts.
   */
  withdrawFromSubaccount(input: SubaccountWithdrawalInput): Promise<ProviderTransfer> {
    return this.#payouts.create(
      { payoutId: input.payoutId, amount: input.amount, destination: { type: 'account' }, ...(input.description ? { description: input.description } : {}) },
      input.providerSubaccountId,
    );
  }

  getSubaccountWithdrawal(input: SubaccountWithdrawalLookup): Promise<ProviderTransfer> {
    return this.#payouts.get(input.payoutId, input.providerTransferId, input.providerSubaccountId);
  }

  /**
   * The Connect endpoint (`connect=true`) for `account.updated` of the connected accounts, with its
   * own signing secret: an adapter made with that secret parses its events (parseSubaccountWebhook).
   * `url` must differ in path from registerWebhook's (each replaces the endpoints at its URL).
   */
  async registerSubaccountWebhook(url: string): Promise<WebhookRegistration> {
    const { signingSecret, endpointId } = await registerStripeConnectEndpoint(this.refundApi, url, STRIPE_API_VERSION);
    await this.deleteOtherEndpoints(url, endpointId);
    return { signingSecret };
  }

  /** A Connect endpoint's event (signed with its secret): the connected accounts an `account.updated` names. */
  parseSubaccountWebhook(webhook: WebhookRequest): SubaccountWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const event = parseStripeEvent(webhook.rawBody);
    if (event.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, eventKey: `stripe:${event.eventId}`, subaccounts: connectedAccountsOfEvent(webhook.rawBody).map((providerSubaccountId) => ({ providerSubaccountId })) };
  }
}

/** The PaymentIntent body for the charge's method (Pix, boleto, or card with the account's `pm_…` or the vault card's). */
function intentParams(input: CreateChargeInput, vaultPaymentMethodId?: string): Record<string, FormValue> {
  switch (input.method) {
    case 'pix':
      return buildPixIntentParams(input);
    case 'boleto':
      return buildBoletoIntentParams(input, BOLETO_DUE_DAYS);
    case 'card':
      if (vaultPaymentMethodId) return buildCardIntentParams(input, vaultPaymentMethodId);
      if (!input.card?.token) throw new RangeError('card needs the card token (pm_…)');
      return buildCardIntentParams(input, input.card.token);
    default:
      return assertNever(input.method);
  }
}

function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

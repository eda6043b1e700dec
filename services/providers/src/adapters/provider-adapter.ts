import type { AddressFields, CustomerFields, ProviderChargeStatus, RefundStatus } from '@orquestra/contracts';
import type { HttpExchangeObserver } from './http/provider-http';
import type { DisputeCapable, ProviderDispute } from './provider-disputes';

/**
 * The one interface every payment-provider adapter implements. Each adapter lives in
 * `adapters/<provider>/` as two files: `<provider>.adapter.ts` (HTTP mechanics: auth, URLs, request
 * building, error responses) and `<provider>.transformers.ts` (pure wire types and conversions,
 * with an exhaustive status map).
 *
 * Rules every adapter follows:
 * - Amounts cross this interface as integer cents; the adapter converts to the provider's units.
 * - A decline by the buyer's bank is a returned charge with status `failed`, never an exception.
 * - Every request goes through the HTTP core (http/provider-http.ts), whose one table turns what
 *   happened on the wire (no connection, no answer, 429, 5xx) into a ProviderError by operation and
 *   payment method: its `kind` tells the caller whether the provider could have created the charge
 *   (`ambiguous`) or certainly did not (`not_created`). The adapter's own table reads the rest.
 * - `createCharge` is idempotent on `input.idempotencyKey`: repeating it never creates a second
 *   charge (by the provider's idempotency key, or by a deterministic provider-side id).
 *
 * @example
 * const adapter = new EfiAdapter({ baseUrl, credentials, tls, webhookUrl });
 * const charge = await adapter.createCharge({ paymentId: 'pay_01…', method: 'pix', amount: 1990, ... });
 * if (charge.status === 'pending') show(charge.nextAction.qrCode);
 */
export interface ProviderAdapter extends DisputeCapable {
  readonly provider: string;
  /** Checks the credentials against the provider (used when an account is connected). */
  verifyCredentials(): Promise<void>;
  createCharge(input: CreateChargeInput): Promise<ProviderCharge>;
  getCharge(providerPaymentId: string): Promise<ProviderCharge>;
  /** Removes an unpaid charge so it can no longer be paid. Answers the charge as it is after. */
  cancelCharge(providerPaymentId: string): Promise<ProviderCharge>;
  /**
   * Returns part or all of a paid charge to the payer. Optional: a provider whose API cannot
   * refund leaves it out, and RefundCharge answers `refund_not_supported`. Idempotent on
   * `input.refundId`: repeating it never refunds twice (the provider's idempotency key or refund
   * id is derived from it). A refusal (over the refundable amount, too old) throws ProviderError
   * `rejected`; an accepted refund is returned `pending` or already final.
   *
   * @example
   * const refund = await adapter.refundCharge?.({ providerPaymentId: txid, refundId: 're_01j…', amount: 500, endToEndId });
   * if (refund.status === 'pending') await webhookOrSync(); // the final state arrives later
   */
  refundCharge?(input: RefundChargeInput): Promise<ProviderRefund>;
  /**
   * Registers our webhook URL for this account at the provider. Answers what must be kept for
   * verifying later webhooks (e.g. the signing secret Stripe issues for a new endpoint), or that
   * the owner must paste the URL in the provider's dashboard (providers without a webhook API).
   */
  registerWebhook(url: string): Promise<WebhookRegistration>;
  /** Verifies and parses a webhook the provider sent to this account's route. */
  parseWebhook(request: WebhookRequest): WebhookParseResult;
}

export type ChargeMethod = 'pix' | 'boleto' | 'card';
export type { ProviderChargeStatus };

/**
 * The buyer, as every hop carries it (libs/contracts `CustomerFields`), with the name a charge
 * needs. The address is required for boleto (the bank prints it; CEP as 8 digits, state as the
 * 2-letter UF); the IP (defaults to the API caller's) goes to providers that score card fraud by it.
 */
export type CustomerInput = CustomerFields & { name: string };

export type AddressInput = AddressFields;

/**
 * A card payment's card: the token the account's own card form minted (Stripe `pm_…`, Pagar.me
 * `token_…`); it exists only inside that account, so a card charge goes to exactly one account.
 */
export interface CardChargeInput {
  /** The account's own card token (Stripe pm_…); '' for a vault card. */
  token: string;
  /**
   * A card from the vault (a saved card or a card fields token), to be created at the provider in
   * its form. In memory for this one call: never logged, never stored, never in an error.
   */
  vaultCard?: VaultCardInput;
  /** 1..12. */
  installments: number;
  brand?: string;
}

export interface VaultCardInput {
  /** Digits only. */
  number: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  /** Absent once the vault deleted it (after the first approval or an hour). */
  cvc?: string;
  holderName: string;
  /** visa, mastercard, elo, hipercard, american-express, diners-club, discover, jcb */
  brand: string;
}

export interface CreateChargeInput {
  paymentId: string;
  method: ChargeMethod;
  amount: number;
  customer: CustomerInput;
  expiresInSeconds: number;
  description?: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
  /** Present for method card. */
  card?: CardChargeInput;
  /**
   * Parts of the gross for subaccounts of this account, in cents (computed and checked by
   * payments; never more than the class's `maxSplits`). Absent or empty: no split.
   */
  splits?: ChargeSplitInput[];
}

export interface ChargeSplitInput {
  /** Our subaccount id (sub_…). */
  subaccountId: string;
  /** What the provider's split names (ProviderSubaccount.splitTarget). */
  splitTarget: string;
  amount: number;
}

export interface ProviderNextAction {
  type: 'pix_qr' | 'boleto' | 'redirect' | 'none';
  qrCode?: string;
  qrCodeBase64?: string;
  digitableLine?: string;
  url?: string;
}

export interface ProviderCharge {
  providerPaymentId: string;
  status: ProviderChargeStatus;
  amount: number;
  amountPaid: number;
  nextAction: ProviderNextAction;
  expiresAt?: Date;
  paidAt?: Date;
  endToEndId?: string;
  /** Fee reported by the provider in cents, when it reports one. */
  providerFee?: number;
  failureCode?: string;
  failureReason?: string;
  /** Every refund the provider reports for this charge (ours and those made in its dashboard). */
  refunds?: ProviderRefund[];
}

export interface RefundChargeInput {
  providerPaymentId: string;
  /** Our refund id (`re_…`): the source of the provider's idempotency key / refund id. */
  refundId: string;
  /** Cents. */
  amount: number;
  reason?: string;
  /** The paid Pix's end-to-end id, when known (Banco Central devoluções hang off it). */
  endToEndId?: string;
}

/** A refund's status at the provider: the public refund statuses (libs/contracts). */
export type ProviderRefundStatus = RefundStatus;

export interface ProviderRefund {
  /** The provider's id of the refund. */
  providerRefundId: string;
  /** The key we gave when we asked for it, when the provider reports it (Efí: the devolução id). */
  refundKey?: string;
  /** Cents. */
  amount: number;
  status: ProviderRefundStatus;
  failureCode?: string;
  failureReason?: string;
  reason?: string;
  createdAt?: Date;
}

export interface WebhookRequest {
  subPath: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

export interface WebhookRegistration {
  /** A secret the provider issued (or we set) for verifying this account's webhooks; stored sealed. */
  signingSecret?: string;
  /** True when the provider has no webhook API: the owner pastes the URL in its dashboard. */
  manualSetupRequired?: boolean;
  /** With manualSetupRequired: the events the owner ticks next to the URL. */
  events?: readonly string[];
}

/**
 * Everything an adapter needs for one connected account; built by adapter-factory.ts from the
 * account (credentials decrypted) and the service config (base URLs per mode).
 */
export interface AdapterContext {
  /** Provider API base for the account's mode (sandbox for test, production for live). */
  baseUrl: string;
  /** The credential fields the provider catalog lists, by name. */
  credentials: Record<string, string>;
  /** Our intake URL for this account (carries our per-account secret in `hmac`). */
  webhookUrl: string;
  /** Our per-account secret, as embedded in webhookUrl, for providers that do not sign. */
  webhookSecret: string;
  /** What registerWebhook returned as signingSecret, once registered. */
  signingSecret?: string;
  /** Extra trusted CA (PEM) for the emulators in development; added to Node's roots. */
  caPem?: string;
  /** Provider-specific settings (e.g. Woovi's webhook public key) from config. */
  settings: Record<string, string>;
  timeoutMs: number;
  /** Told of every HTTP exchange with the provider (metrics, logs); see http/provider-http.ts. */
  observe?: HttpExchangeObserver;
}

/** A card refusal the provider reports only in its webhook (the charge itself stays open). */
export interface CardDeclineReport {
  failureCode: string;
  failureReason: string;
}

export type WebhookParseResult =
  | {
      ok: true;
      providerPaymentIds: string[];
      eventKey: string;
      /** By provider payment id: the webhook says the buyer's card was refused (hosted checkout). */
      cardDeclines?: Record<string, CardDeclineReport>;
      /** Disputes the webhook reports (provider-disputes.ts). */
      disputes?: ProviderDispute[];
      /** Disputes the webhook only names: read back with `readDispute` (provider-disputes.ts). */
      disputeIds?: string[];
    }
  | { ok: false; reason: 'unauthenticated' | 'malformed'; httpStatus: number };

/** Raised when talking to the provider failed; `kind` drives failover. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'not_created' | 'ambiguous' | 'rejected' | 'invalid_credentials' | 'not_found',
    readonly normalizedCode:
      | 'provider_unavailable'
      | 'provider_timeout'
      | 'provider_rate_limited'
      | 'provider_error'
      | 'provider_rejected'
      | 'invalid_credentials'
      | 'not_found'
      /** A payout the account's balance does not cover (PayoutCapable.createTransfer). */
      | 'insufficient_balance',
    message: string,
    readonly httpStatus?: number,
    /**
     * Set when the refusal is about one field of the payment (e.g. `card.token` unknown at this
     * account): the caller answers `parameter_invalid` with this param and `publicMessage` (pt-BR).
     */
    readonly param?: { name: string; publicMessage: string },
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * Raised when the provider's API cannot refund this particular charge (e.g. a paid boleto at
 * Pagar.me, which needs the payer's bank account that our API does not collect): RefundCharge
 * answers `refund_not_supported` with `publicMessage` (pt-BR). A `rejected` kind, so the circuit
 * breaker does not count it against the provider.
 */
export class RefundNotSupportedError extends ProviderError {
  constructor(
    message: string,
    readonly publicMessage: string,
  ) {
    super('rejected', 'provider_rejected', message);
    this.name = 'RefundNotSupportedError';
  }
}

/** Whether `method` is one an adapter takes (its static `methods`), narrowing it. */
export function takesMethod<M extends ChargeMethod>(methods: readonly M[], method: ChargeMethod): method is M {
  return (methods as readonly ChargeMethod[]).includes(method);
}

/** The payment methods an adapter's createCharge takes, refused before any request otherwise. */
export function refuseOtherMethods<M extends ChargeMethod>(provider: string, methods: readonly M[], method: ChargeMethod): asserts method is M {
  if (!takesMethod(methods, method)) throw new ProviderError('rejected', 'provider_rejected', `${provider} adapter takes ${methods.join(', ')}, not ${method}`);
}

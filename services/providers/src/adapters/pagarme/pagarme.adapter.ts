/**
 * Pagar.me API v5 adapter: its own HTTP parts only (Basic auth with the secret key, idempotency
 * keys, requests); the pool and the wire table are http/provider-http.ts. Conversions and the error table live in pagarme.transformers.ts.
 *
 * One base URL serves both modes (`https://api.pagar.me/core/v5`): the key decides (`sk_test_…` is
 * the sandbox). A Pix charge is an order with one Pix payment; we answer its charge (`ch_…`).
 * Creation is idempotent through Pagar.me's `idempotency-key` header (kept 24 h by Pagar.me).
 * Webhooks are configured in Pagar.me's dashboard only and are not signed: the URL carries our
 * per-account secret (`?hmac=`), and the caller re-reads the charge before trusting a state.
 *
 * Over 300 lines as the one class an account's adapter is: each capability is one method over the
 * shared HTTP core; conversions live in pagarme.transformers.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
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
  buildOrderRequest,
  chargeOfOrder,
  toProviderCharge,
  type PagarmeCharge,
  type PagarmeCreateOrderRequest,
  type PagarmeOrder,
} from './pagarme.transformers';
import { parsePagarmeWebhookBody } from './pagarme.webhook';
import type { ChargeListingCapable, ChargePage, ChargePeriod } from '../provider-charge-listing';
import { listPagarmeCharges, PAGARME_MAX_LIST_SIZE } from './pagarme.listing';
import { providerErrorFor } from './pagarme.errors';
import { assertVaultCard, cardFieldRefusal } from './pagarme.vault-card';
import { listChargeTransactions, refundPagarmeCharge, refundsOfTransactions } from './pagarme.refunds';
import type { CreateTransferInput, PayoutCapable, ProviderBalance, ProviderTransfer } from '../provider-payouts';
import { PagarmeWithdrawals, RECIPIENT_SETTING } from './pagarme.withdrawals';
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
import { CHARGEBACK_EVENTS, disputeOfCharge } from './pagarme.chargebacks';
import type { ProviderDispute } from '../provider-disputes';
import { createPagarmeRecipient, getPagarmeRecipient, PAGARME_SUBACCOUNT_REQUIREMENTS, pagarmeKycLink, pagarmeRecipientBalance } from './pagarme.subaccounts';

/**
 * The events the owner ticks in Pagar.me's dashboard next to our URL (and that we register in the
 * emulator): payment, expiry, cancelation, refunds (`charge.partial_canceled` for a part,
 * `charge.refunded` for the rest), and a recipient's (subaccount's) status change. Each is only a
 * hint: the charge or recipient is re-read.
 */
export const WEBHOOK_EVENTS = [
  'charge.paid',
  'charge.payment_failed',
  'charge.partial_canceled',
  'charge.refunded',
  // A card chargeback (pagarme.chargebacks.ts): the charge is read back.
  ...CHARGEBACK_EVENTS,
  'order.paid',
  'order.canceled',
  'order.payment_failed',
  'recipient.updated',
] as const;

/** `settings.list_page_size`: a smaller page for listCharges than Pagar.me's largest (tests use it). */
function listPageSize(settings: Record<string, string>): number {
  const asked = Number(settings['list_page_size']);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, PAGARME_MAX_LIST_SIZE) : PAGARME_MAX_LIST_SIZE;
}

export class PagarmeAdapter implements ProviderAdapter, PayoutCapable, SubaccountCapable, ChargeListingCapable {
  /** Card: vault cards only (pagarme.vault-card.ts). */
  static readonly methods = ['pix', 'boleto', 'card'] as const;
  /** Chargebacks are announced by `charge.chargedback` and read back (pagarme.chargebacks.ts). */
  static readonly disputeEvents = CHARGEBACK_EVENTS;
  /** Vault cards go in the order's `credit_card.card`; the `cvv` is sent and required (pagarme.vault-card.ts). */
  static readonly vaultCards = { needsCvc: true } as const;
  /** Withdrawals to the recipient's registered bank account (pagarme.withdrawals.ts). */
  static readonly payoutDestinations = ['account'] as const;
  readonly payoutDestinations = PagarmeAdapter.payoutDestinations;
  /** Subaccounts are recipients (pagarme.subaccounts.ts). */
  static readonly subaccountRequirements = PAGARME_SUBACCOUNT_REQUIREMENTS;
  /**
   * Split parts per charge, one flat rule each plus the main recipient's rule with the remainder
   * (pagarme.transformers.ts splitRules). Pagar.me documents no limit; 20 is our API's.
   */
  static readonly maxSplits = 20;
  readonly provider = 'pagarme';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #http: ProviderHttp;
  readonly #withdrawals: PagarmeWithdrawals;
  readonly #listPageSize: number;

  constructor(context: AdapterContext) {
    this.#secretKey = context.credentials['secret_key'] ?? '';
    this.#webhookSecret = context.webhookSecret;
    this.#http = accountHttp(this.provider, context);
    this.#listPageSize = listPageSize(context.settings);
    this.#withdrawals = new PagarmeWithdrawals((m, p, o, b, h) => this.api(m, p, o, b, h), context.settings[RECIPIENT_SETTING] || undefined);
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#http.close();
  }

  /** A `/core/v5` call with HTTP Basic `<secret key>:` (empty password). */
  private api(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'read' | 'write', body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const basic = Buffer.from(`${this.#secretKey}:`).toString('base64');
    return this.#http.send({
      method,
      path,
      purpose,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Basic ${basic}`, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/orders?page=1&size=1', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    refuseOtherMethods(this.provider, PagarmeAdapter.methods, input.method);
    assertVaultCard(input);
    let orderRequest: PagarmeCreateOrderRequest;
    // A split names the main recipient too (its rule takes the remainder): asked once per adapter.
    const mainRecipient = input.splits?.length ? await this.#withdrawals.recipient() : undefined;
    try {
      orderRequest = buildOrderRequest(input, new Date(), mainRecipient);
    } catch (err) {
      // Missing customer data or an amount no provider can charge: refused before any call.
      throw new ProviderError('rejected', 'provider_rejected', `pagarme create: ${(err as Error).message}`);
    }
    // Pagar.me answers a repeated key (24 h) with the first answer, whatever the new body is.
    const answer = await this.api('POST', '/orders', { operation: 'create', method: input.method }, orderRequest, { 'idempotency-key': input.idempotencyKey });
    if (answer.status !== 200 && answer.status !== 201) throw cardFieldRefusal(answer.status, answer.body) ?? providerErrorFor(answer.status, answer.body, 'create order');
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

  private readonly refundApi = (method: 'GET' | 'DELETE', path: string, operation: 'read' | 'write', body?: unknown, headers?: Record<string, string>) =>
    this.api(method, path, operation, body, headers);

  /** See pagarme.refunds.ts: DELETE /charges/{id} with our refund id as operation_reference and idempotency key. */
  refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    return refundPagarmeCharge(this.refundApi, input);
  }

  /** Pagar.me's orders of the period, page by page (pagarme.listing.ts): no fee in the list. */
  listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage> {
    return listPagarmeCharges((path) => this.api('GET', path, 'read'), period, cursor, this.#listPageSize);
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

  /**
   * Pagar.me has no webhook API: the owner pastes `url` (which carries our secret) in the dashboard
   * and ticks these events, so this always answers manualSetupRequired.
   */
  registerWebhook(_url: string): Promise<WebhookRegistration> {
    return Promise.resolve({ manualSetupRequired: true, events: WEBHOOK_EVENTS });
  }

  /**
   * Pagar.me v5 documents no webhook signature and no timestamp to bound replays, so the secret in
   * the URL authenticates and the hook id (the same across Pagar.me's retries) dedupes replays.
   */
  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    if (!this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parsePagarmeWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    // A chargeback names its charge: the charge is re-read, and read back as a dispute (readDispute).
    const chargeback = (CHARGEBACK_EVENTS as readonly string[]).includes(parsed.type);
    return { ok: true, providerPaymentIds: parsed.chargeIds, eventKey: parsed.eventKey, ...(chargeback ? { disputeIds: parsed.chargeIds } : {}) };
  }

  /**
   * `GET /charges/{id}`: the chargeback of a charge a `charge.chargedback` named, reported only if
   * the charge reads `chargedback` (pagarme.chargebacks.ts).
   */
  async readDispute(providerDisputeId: string): Promise<ProviderDispute | undefined> {
    return disputeOfCharge(await this.readCharge(providerDisputeId));
  }

  /** The same delivery parseWebhook reads, authenticated alike; the recipient a `recipient.updated` names. */
  parseSubaccountWebhook(webhook: WebhookRequest): SubaccountWebhookParseResult {
    if (!this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parsePagarmeWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, eventKey: parsed.eventKey, subaccounts: parsed.recipient ? [parsed.recipient] : [] };
  }

  // --- balance and withdrawals (pagarme.withdrawals.ts) --------------------------------------

  getBalance(): Promise<ProviderBalance> {
    return this.#withdrawals.balance();
  }

  /** Idempotent by our payout id as `idempotency-key` (24 h at Pagar.me) and in `metadata.payout_id`. */
  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    return this.#withdrawals.create(input);
  }

  getTransfer(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return this.#withdrawals.get(input);
  }

  // --- subaccounts: recipients (pagarme.subaccounts.ts) --------------------------------------

  /** Idempotent by our subaccount id as the recipient's `code` (looked up first) and `idempotency-key`. */
  createSubaccount(input: CreateSubaccountInput): Promise<ProviderSubaccount> {
    return createPagarmeRecipient((m, p, o, b, h) => this.api(m, p, o, b, h), input);
  }

  getSubaccount(providerSubaccountId: string): Promise<ProviderSubaccount> {
    return getPagarmeRecipient((m, p, o, b, h) => this.api(m, p, o, b, h), providerSubaccountId);
  }

  /** The KYC (proof of life) link the seller opens to become active. */
  onboardingLink(providerSubaccountId: string): Promise<OnboardingLink> {
    return pagarmeKycLink((m, p, o, b, h) => this.api(m, p, o, b, h), providerSubaccountId);
  }

  getSubaccountBalance(providerSubaccountId: string): Promise<SubaccountBalance> {
    return pagarmeRecipientBalance((m, p, o, b, h) => this.api(m, p, o, b, h), providerSubaccountId);
  }

  /**
   * `POST /recipients/{recipient}/withdrawals {amount}` on the subaccount's recipient, to the bank
   * account registered on it (the Pix key is not used: Pagar.me withdraws to the bank account only);
   * idempotent by our payout id as `idempotency-key` and `metadata.payout_id`, as main-account ones.
   */
  withdrawFromSubaccount(input: SubaccountWithdrawalInput): Promise<ProviderTransfer> {
    return this.#withdrawals.withdrawFrom(input.providerSubaccountId, input);
  }

  getSubaccountWithdrawal(input: SubaccountWithdrawalLookup): Promise<ProviderTransfer> {
    return this.#withdrawals.getFrom(input.providerSubaccountId, input);
  }

  private sameSecret(candidate: string | undefined): boolean {
    if (candidate === undefined || this.#webhookSecret.length === 0) return false;
    // Compare digests: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
    const expected = createHash('sha256').update(this.#webhookSecret).digest();
    const actual = createHash('sha256').update(candidate).digest();
    return timingSafeEqual(expected, actual);
  }
}

/**
 * Woovi (OpenPix) Pix adapter: its own HTTP parts only (auth header, requests); the pool and the
 * wire table are http/provider-http.ts.
 * Conversions and the error table live in woovi.transformers.ts, webhook checks in woovi.webhook.ts.
 *
 * Every call carries the account's AppID as is in `Authorization` (no `Bearer`). Charges are created
 * with a correlationID derived from our idempotency key — Woovi's idempotency key for charges — so a
 * repeated create answers the existing charge instead of making a second one.
 *
 * Over 300 lines as the one class an account's adapter is: each capability is one short method over
 * the shared HTTP core, and their wire details live in woovi.transformers.ts.
 */
import { assertNever } from '@orquestra/platform';
import { createHash, timingSafeEqual, type KeyObject } from 'node:crypto';
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
import type { ProviderDispute } from '../provider-disputes';
import {
  buildChargeRequest,
  chargeOf,
  sameSplits,
  splitRefusal,
  isCorrelationIdInUse,
  providerErrorFor,
  toProviderCharge,
  type WooviCharge,
  type WooviChargeRequest,
} from './woovi.transformers';
import { toProviderDispute } from './woovi.disputes';
import { refundWooviCharge, wooviChargeRefunds } from './woovi.refunds';
import type { ChargeListingCapable, ChargePage, ChargePeriod } from '../provider-charge-listing';
import { listWooviCharges, WOOVI_MAX_LIST_LIMIT } from './woovi.listing';
import { parsePublicKeys, parseWooviWebhookBody, verifyWooviSignature } from './woovi.webhook';
import type {
  CreateCycleChargeInput,
  CreateRecurrenceInput,
  GetCycleChargeInput,
  ProviderCycleCharge,
  ProviderRecurrence,
  RecurrenceCapable,
  RecurrenceWebhookParseResult,
} from '../provider-recurrences';
import { WooviRecurrences } from './woovi.recurrences';
import { RECURRENCE_EVENTS, parseWooviRecurrenceWebhookBody } from './woovi.recurrences.transformers';
import type { CreateTransferInput, PayoutCapable, ProviderBalance, ProviderTransfer, TransferWebhookParseResult } from '../provider-payouts';
import { MOVEMENT_EVENTS, createWooviTransfer, getWooviTransfer, parseWooviTransferBody, wooviBalance } from './woovi.transfers';
import type { CreateSubaccountInput, ProviderSubaccount, SubaccountBalance, SubaccountCapable } from '../provider-subaccounts';
import { WOOVI_SUBACCOUNT_REQUIREMENTS, createWooviSubaccount, getWooviSubaccount, wooviSubaccountBalance } from './woovi.subaccounts';
import type { SubaccountWithdrawalInput, SubaccountWithdrawalLookup } from '../provider-subaccounts';
import { getWooviSubaccountWithdrawal, withdrawFromWooviSubaccount } from './woovi.withdrawals';

/** The MED events (woovi.disputes.ts). */
const DISPUTE_EVENTS = ['OPENPIX:DISPUTE_CREATED', 'OPENPIX:DISPUTE_ACCEPTED', 'OPENPIX:DISPUTE_REJECTED', 'OPENPIX:DISPUTE_CANCELED'] as const;

/** The events we need: a charge paid, a charge no longer payable, refunds, MED disputes, and Pix payments out (woovi.transfers.ts). */
export const WEBHOOK_EVENTS = ['OPENPIX:CHARGE_COMPLETED', 'OPENPIX:CHARGE_EXPIRED', 'OPENPIX:TRANSACTION_REFUND_RECEIVED', ...DISPUTE_EVENTS, ...MOVEMENT_EVENTS] as const;

/** `context.settings` key: Woovi's webhook public key(s) for the account's environment, PEM. */
export const PUBLIC_KEY_SETTING = 'webhook_public_key';

/** `settings.list_page_size`: a smaller page for listCharges than Woovi's largest (tests use it). */
function listPageSize(settings: Record<string, string>): number {
  const asked = Number(settings['list_page_size']);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, WOOVI_MAX_LIST_LIMIT) : WOOVI_MAX_LIST_LIMIT;
}

export class WooviAdapter implements ProviderAdapter, RecurrenceCapable, PayoutCapable, SubaccountCapable, ChargeListingCapable {
  static readonly methods = ['pix'] as const;
  /** A name and a Pix key, which identifies the subaccount (woovi.subaccounts.ts). */
  static readonly subaccountRequirements = WOOVI_SUBACCOUNT_REQUIREMENTS;
  /** Split parts per Pix charge (`splits[{value, pixKey, SPLIT_SUB_ACCOUNT}]`): Woovi documents no limit, so the spec's maximum. */
  static readonly maxSplits = 20;
  /** MED notices arrive by webhook (woovi.disputes.ts). */
  static readonly disputeEvents = DISPUTE_EVENTS;
  /** Pix payments out to a key (woovi.transfers.ts). */
  static readonly payoutDestinations = ['pix_key'] as const;
  readonly payoutDestinations = WooviAdapter.payoutDestinations;
  readonly provider = 'woovi';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #appId: string;
  readonly #webhookSecret: string;
  readonly #http: ProviderHttp;
  readonly #listPageSize: number;
  readonly #publicKeys: KeyObject[];
  /** Pix Automático (woovi.recurrences.ts). */
  readonly #recurrences: WooviRecurrences;

  constructor(context: AdapterContext) {
    this.#appId = context.credentials['app_id'] ?? '';
    this.#webhookSecret = context.webhookSecret;
    this.#publicKeys = parsePublicKeys(context.settings[PUBLIC_KEY_SETTING]);
    this.#http = accountHttp(this.provider, context);
    this.#listPageSize = listPageSize(context.settings);
    this.#recurrences = new WooviRecurrences((m, p, o, b) => this.api(m, p, o, b));
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#http.close();
  }

  private api(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'read' | 'write', body?: unknown): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: this.#appId, accept: 'application/json' };
    if (body === undefined) return this.#http.send({ method, path, purpose, headers });
    return this.#http.send({ method, path, purpose, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** The charge of a 2xx answer; an answer without one is Woovi misbehaving (the create may have happened). */
  private chargeFrom(answer: HttpAnswer, operation: 'create' | 'read'): WooviCharge {
    const charge = chargeOf(answer.body);
    if (charge) return charge;
    throw new ProviderError(operation === 'read' ? 'not_created' : 'ambiguous', 'provider_error', `woovi ${operation}: HTTP ${answer.status} without a readable charge`, answer.status);
  }

  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/api/v1/charge?limit=1', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    refuseOtherMethods(this.provider, WooviAdapter.methods, input.method);
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
    if (!sameSplits(charge, input)) {
      throw new ProviderError('rejected', 'provider_rejected', `woovi create: correlationID ${chargeRequest.correlationID} already holds a charge with another split`);
    }
    return toProviderCharge(charge);
  }

  /**
   * POST with `return_existing=true` (OpenAPI: "will return an existent charge if already has one
   * with the correlationID"). Should Woovi refuse the repeat instead, the existing one is read back.
   */
  private async createOrRead(chargeRequest: WooviChargeRequest): Promise<WooviCharge> {
    const answer = await this.api('POST', '/api/v1/charge?return_existing=true', { operation: 'create', method: 'pix' }, chargeRequest);
    if (answer.status === 200 || answer.status === 201) return this.chargeFrom(answer, 'create');
    if (isCorrelationIdInUse(answer.status, answer.body)) return this.readCharge(chargeRequest.correlationID);
    throw splitRefusal(answer.status, answer.body, (chargeRequest.splits ?? []).length > 0) ?? providerErrorFor(answer.status, answer.body, 'create charge');
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

  /** Woovi's charges of the period, page by page, with each paid one's refunds (woovi.listing.ts). */
  listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage> {
    return listWooviCharges((m, p, o, b) => this.api(m, p, o, b), period, cursor, this.#listPageSize);
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

  /**
   * One Woovi webhook per event we need, for `url` as given (it carries our `hmac` secret). Ones
   * already registered for this URL are kept, so registering again adds nothing. Woovi issues no
   * per-webhook secret for the RSA scheme: its public key is the same for every account.
   */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    await this.registerEvents(url, WEBHOOK_EVENTS);
    return {};
  }

  private async registerEvents(url: string, events: readonly string[]): Promise<void> {
    const list = await this.api('GET', `/api/v1/webhook?url=${encodeURIComponent(url)}`, 'read');
    if (list.status !== 200) throw providerErrorFor(list.status, list.body, 'list webhooks');
    const existing = ((list.body as { webhooks?: { event?: unknown; url?: unknown; isActive?: unknown }[] } | undefined)?.webhooks ?? [])
      .filter((w) => w.url === url && w.isActive !== false)
      .map((w) => w.event);
    for (const event of events.filter((e) => !existing.includes(e))) {
      const answer = await this.api('POST', '/api/v1/webhook', 'write', {
        webhook: { name: `orquestra ${event.replace(/^OPENPIX:/, '').toLowerCase()}`, event, url, isActive: true },
      });
      if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'register webhook');
    }
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
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
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
      default:
        return assertNever(parsed);
    }
  }

  private authentic(webhook: WebhookRequest): boolean {
    const signatureHeader = Object.entries(webhook.headers).find(([name]) => name.toLowerCase() === 'x-webhook-signature')?.[1];
    return verifyWooviSignature(webhook.rawBody, signatureHeader, this.#publicKeys) === 'valid' && this.sameSecret(webhook.query['hmac']);
  }

  private sameSecret(candidate: string | undefined): boolean {
    if (candidate === undefined || this.#webhookSecret.length === 0) return false;
    // Compare digests: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
    const expected = createHash('sha256').update(this.#webhookSecret).digest();
    const actual = createHash('sha256').update(candidate).digest();
    return timingSafeEqual(expected, actual);
  }

  // --- balance and Pix payments out (woovi.transfers.ts) -------------------------------------

  getBalance(): Promise<ProviderBalance> {
    return wooviBalance((m, p, o, b) => this.api(m, p, o, b));
  }

  /** Idempotent on the payment's correlationID, which is our payout id (create, then approve). */
  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    return createWooviTransfer((m, p, o, b) => this.api(m, p, o, b), input);
  }

  getTransfer(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return getWooviTransfer((m, p, o, b) => this.api(m, p, o, b), input);
  }

  /** Authenticated as parseWebhook is (RSA signature and our secret); the payment an `OPENPIX:MOVEMENT_*` event names. */
  parseTransferWebhook(webhook: WebhookRequest): TransferWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseWooviTransferBody(webhook.rawBody);
    return parsed.kind === 'malformed' ? { ok: false, reason: 'malformed', httpStatus: 400 } : { ok: true, eventKey: parsed.eventKey, transfers: parsed.transfers };
  }

  // --- subaccounts (woovi.subaccounts.ts): keyed by their Pix key, active at once -----------

  /** Idempotent on the Pix key (our subaccount id is not kept by Woovi). */
  createSubaccount(input: CreateSubaccountInput): Promise<ProviderSubaccount> {
    return createWooviSubaccount((m, p, o, b) => this.api(m, p, o, b), input);
  }

  getSubaccount(providerSubaccountId: string): Promise<ProviderSubaccount> {
    return getWooviSubaccount((m, p, o, b) => this.api(m, p, o, b), providerSubaccountId);
  }

  getSubaccountBalance(providerSubaccountId: string): Promise<SubaccountBalance> {
    return wooviSubaccountBalance((m, p, o, b) => this.api(m, p, o, b), providerSubaccountId);
  }

  /** Woovi withdraws the whole balance to the subaccount's own key: `wholeBalance` (woovi.withdrawals.ts). */
  withdrawFromSubaccount(input: SubaccountWithdrawalInput): Promise<ProviderTransfer> {
    return withdrawFromWooviSubaccount((m, p, o, b) => this.api(m, p, o, b), input);
  }

  /** Woovi has no read of a withdrawal: refused, saying so (woovi.withdrawals.ts). */
  getSubaccountWithdrawal(lookup: SubaccountWithdrawalLookup): Promise<ProviderTransfer> {
    return getWooviSubaccountWithdrawal((m, p, o, b) => this.api(m, p, o, b), lookup);
  }

  // --- Pix Automático (woovi.recurrences.ts) -------------------------------------------------

  createRecurrence(input: CreateRecurrenceInput): Promise<ProviderRecurrence> {
    return this.#recurrences.create(input);
  }

  getRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence> {
    return this.#recurrences.get(providerRecurrenceId);
  }

  cancelRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence> {
    return this.#recurrences.cancel(providerRecurrenceId);
  }

  /** Woovi creates each cycle's charge itself: CycleChargeNotApplicableError. */
  createCycleCharge(_input: CreateCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.createCycleCharge();
  }

  getCycleCharge(input: GetCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.getCycleCharge(input);
  }

  /** Woovi takes one webhook per event: the `PIX_AUTOMATIC_*` ones at our intake URL. */
  async registerRecurrenceWebhooks(url: string): Promise<void> {
    await this.registerEvents(url, RECURRENCE_EVENTS);
  }

  /** Authenticated as parseWebhook is (RSA signature and our secret). */
  parseRecurrenceWebhook(webhook: WebhookRequest): RecurrenceWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseWooviRecurrenceWebhookBody(webhook.rawBody);
    switch (parsed.kind) {
      case 'events':
        return { ok: true, eventKey: parsed.eventKey, events: parsed.events };
      case 'other': {
        const other = this.parseWebhook(webhook);
        return other.ok ? { ok: true, eventKey: other.eventKey, events: [] } : other;
      }
      case 'malformed':
        return { ok: false, reason: 'malformed', httpStatus: 400 };
      default:
        return assertNever(parsed);
    }
  }
}

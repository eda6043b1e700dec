/**
 * Asaas API v3 adapter: its own HTTP parts only (the `access_token` header, requests); the pool
 * and the wire table are http/provider-http.ts. Conversions, the status map and the error table live in asaas.transformers.ts.
 *
 * A Pix charge at Asaas takes a customer (found by CPF/CNPJ or created), then `POST /payments`,
 * then `GET /payments/:id/pixQrCode`; a boleto the same with `billingType BOLETO`, then
 * `GET /payments/:id/identificationField` for its linha digitável. Asaas has no idempotency header and keeps no metadata beyond
 * `externalReference`, so that field carries our idempotency key and every create first searches
 * `GET /payments?externalReference=`. That leaves a race: two concurrent creates with one key can
 * both miss the search and both create. For Pix that is acceptable: at worst two open Pix charges
 * exist, we show one QR code, and the other expires unpaid (nobody has its code); a boleto likewise
 * (nobody has the other's line; it falls overdue unpaid). The platform
 * also never runs two creates of one payment at once.
 *
 * Over 300 lines as the one class an account's adapter is: each capability's calls live in their
 * own file (asaas.refunds.ts, asaas.chargebacks.ts, asaas.recurrences.ts, asaas.transfers.ts) and
 * this class only delegates to them.
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
import { ASAAS_LIST_PAGE_SIZE_MAX, asaasPaymentListPage, asaasPaymentListPath, decodeAsaasListCursor, type AsaasPaymentList } from './asaas.listing';
import type { ChargeListingCapable, ChargePage, ChargePeriod } from '../provider-charge-listing';
import { parseJsonExact, stringifyExact } from './asaas.json';
import {
  buildCustomerRequest,
  buildPaymentRequest,
  isHostedCheckout,
  mapPaymentStatus,
  reaisToCents,
  sameSplit,
  toProviderCharge,
  type AsaasCustomer,
  type AsaasCustomerRequest,
  type AsaasIdentificationField,
  type AsaasList,
  type AsaasPayment,
  type AsaasPaymentRequest,
  type AsaasPixQrCode,
  type AsaasPixTransaction,
  type ChargeDetails,
} from './asaas.transformers';
import { errorCode, providerErrorFor } from './asaas.errors';
import { assertHostedCard } from './asaas.card';
import { declineOfRefusal, maskedReason, vaultCardFields } from './asaas.vault-card';
import { AUTH_TOKEN_HEADER, WEBHOOK_EVENTS, newAuthToken, parseAsaasWebhookBody, sameSecret } from './asaas.webhook';
import { asaasCardDecline, declineReason } from '../../domain/card-declines';
import { refundAsaasPayment, toProviderRefunds, type AsaasRefund } from './asaas.refunds';
import { CHARGEBACK_EVENTS, chargebackOf } from './asaas.chargebacks';
import type { CreateCycleChargeInput, CreateRecurrenceInput, GetCycleChargeInput, ProviderCycleCharge, ProviderRecurrence, RecurrenceCapable, RecurrenceWebhookParseResult } from '../provider-recurrences';
import { AsaasRecurrences, parseAsaasRecurrenceWebhookBody } from './asaas.recurrences';
import type { CreateTransferInput, PayoutCapable, ProviderBalance, ProviderTransfer, TransferWebhookParseResult } from '../provider-payouts';
import { asaasBalance, createAsaasTransfer, getAsaasTransfer } from './asaas.transfers';
import type { CreateSubaccountInput, ProviderSubaccount, SubaccountBalance, SubaccountCapable, SubaccountWebhookParseResult } from '../provider-subaccounts';
import { ASAAS_SUBACCOUNT_REQUIREMENTS, asaasSubaccountBalance, createAsaasSubaccount, getAsaasSubaccount } from './asaas.subaccounts';
import type { SubaccountWithdrawalInput, SubaccountWithdrawalLookup } from '../provider-subaccounts';
import { getAsaasSubaccountWithdrawal, withdrawFromAsaasSubaccount } from './asaas.withdrawals';

/** A card sent in the create call that Asaas refused; `reason` is its description, digit runs masked. */
class AsaasCardRefused extends Error {
  constructor(readonly reason: string) {
    super('asaas create: card refused');
  }
}

function errorDescriptionOf(body: unknown): string {
  const description = (body as { errors?: { description?: unknown }[] } | undefined)?.errors?.[0]?.description;
  return maskedReason(typeof description === 'string' ? description : undefined);
}

/** Asaas requires a User-Agent on every request (accounts created since 2024-06-13). */
const USER_AGENT = 'Orquestra/1.0 (payment orchestration)';

export class AsaasAdapter implements ProviderAdapter, RecurrenceCapable, PayoutCapable, SubaccountCapable, ChargeListingCapable {
  /** Boleto (`billingType BOLETO`, its line from `/identificationField`); card on Asaas's hosted invoice page (asaas.card.ts). */
  static readonly methods = ['pix', 'boleto', 'card'] as const;
  /** Chargebacks arrive by webhook (asaas.chargebacks.ts). */
  static readonly disputeEvents = CHARGEBACK_EVENTS;
  /** Transfers to a Pix key (asaas.transfers.ts); Asaas names no registered bank account to pay. */
  static readonly payoutDestinations = ['pix_key'] as const;
  readonly payoutDestinations = AsaasAdapter.payoutDestinations;
  /** Subaccounts (`POST /v3/accounts`, asaas.subaccounts.ts). */
  static readonly subaccountRequirements = ASAAS_SUBACCOUNT_REQUIREMENTS;
  /**
   * Split parts per charge (`split[{walletId, fixedValue}]`, Pix and card alike): Asaas documents
   * no limit, so the spec's maximum.
   */
  static readonly maxSplits = 20;
  /** Vault cards go in the create call with `creditCard` + holder info (asaas.vault-card.ts); Asaas requires the `ccv`. */
  static readonly vaultCards = { needsCvc: true } as const;
  readonly provider = 'asaas';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #apiKey: string;
  readonly #webhookSecret: string;
  readonly #signingSecret: string | undefined;
  readonly #http: ProviderHttp;
  /** Pix Automático (asaas.recurrences.ts). */
  readonly #recurrences: AsaasRecurrences;
  /** `settings.webhook_email`: where Asaas reports failing webhooks (optional). */
  private readonly webhookEmail: string | undefined;

  /** Charges per page of the list for reconciliation (setting `list_page_size`; Asaas allows 100). */
  private readonly listPageSize: number;

  constructor(context: AdapterContext) {
    this.webhookEmail = context.settings['webhook_email'] || undefined;
    const pageSize = Number(context.settings['list_page_size'] ?? ASAAS_LIST_PAGE_SIZE_MAX);
    this.listPageSize = Number.isSafeInteger(pageSize) ? Math.min(Math.max(pageSize, 1), ASAAS_LIST_PAGE_SIZE_MAX) : ASAAS_LIST_PAGE_SIZE_MAX;
    this.#apiKey = context.credentials['api_key'] ?? '';
    this.#webhookSecret = context.webhookSecret;
    this.#signingSecret = context.signingSecret;
    // Amounts are read with the exact-decimal parser: a JSON number never becomes a float here.
    this.#http = accountHttp(this.provider, context, { parse: parseJsonExact });
    this.#recurrences = new AsaasRecurrences((m, p, o, b) => this.api(m, p, o, b), (c) => this.customerFor(c));
  }

  /** Releases the connection pool. */
  close(): Promise<void> {
    return this.#http.close();
  }

  /** One page of the charges created on the period's São Paulo days, newest first (asaas.listing.ts). */
  async listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage> {
    const offset = decodeAsaasListCursor(cursor);
    const answer = await this.api('GET', asaasPaymentListPath(period, offset, this.listPageSize), 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list payments');
    return asaasPaymentListPage(answer.body as AsaasPaymentList, period, offset);
  }

  /**
   * A `/v3` call. `prepare` marks the lookups and customer upsert a create makes before it posts
   * the charge: nothing chargeable exists yet. `apiKey`: a subaccount's own, for what Asaas answers
   * only to it (asaas.subaccounts.ts).
   */
  private api(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'prepare' | 'read' | 'write', body?: unknown, apiKey: string = this.#apiKey): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json', access_token: apiKey };
    if (body === undefined) return this.#http.send({ method, path, purpose, headers });
    return this.#http.send({ method, path, purpose, headers: { ...headers, 'content-type': 'application/json' }, body: stringifyExact(body) });
  }

  async verifyCredentials(): Promise<void> {
    const answer = await this.api('GET', '/customers?limit=1', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'verify credentials');
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    refuseOtherMethods(this.provider, AsaasAdapter.methods, input.method);
    const vaultCard = input.method === 'card' ? input.card?.vaultCard : undefined;
    if (input.method === 'card' && !vaultCard) assertHostedCard(input);
    let paymentRequest: AsaasPaymentRequest;
    try {
      paymentRequest = buildPaymentRequest(input, '', new Date());
    } catch (err) {
      throw new ProviderError('rejected', 'provider_rejected', `asaas create: ${(err as Error).message}`);
    }
    // A vault card goes in the create call (asaas.vault-card.ts); its fields are checked before any request.
    const cardFields = vaultCard ? vaultCardFields(input, vaultCard) : undefined;
    const customerRequest = buildCustomerRequest(input.customer);
    const existing = await this.findByExternalReference(paymentRequest.externalReference, 'prepare');
    let payment: AsaasPayment;
    try {
      payment = existing ?? (await this.postPayment({ ...paymentRequest, customer: await this.customerFor(customerRequest), ...cardFields }, input.method));
    } catch (err) {
      if (err instanceof AsaasCardRefused) return declineOfRefusal(paymentRequest.externalReference, input.amount, err.reason);
      throw err;
    }
    if (reaisToCents(payment.value) !== input.amount) {
      throw new ProviderError('rejected', 'provider_rejected', `asaas create: key already holds charge ${payment.id} of another amount`);
    }
    if (!sameSplit(payment, input)) {
      throw new ProviderError('rejected', 'provider_rejected', `asaas create: key already holds charge ${payment.id} with another split`);
    }
    return toProviderCharge(payment, await this.detailsOf(payment));
  }

  /** The oldest live payment with this reference (all retries converge on the same one). */
  private async findByExternalReference(reference: string, operation: 'prepare' | 'read'): Promise<AsaasPayment | undefined> {
    const answer = await this.api('GET', `/payments?externalReference=${encodeURIComponent(reference)}&limit=100`, operation);
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'find payment');
    const matches = (answer.body as AsaasList<AsaasPayment>).data.filter((p) => p.externalReference === reference && !p.deleted);
    return matches.at(-1);
  }

  private async customerFor(customer: AsaasCustomerRequest): Promise<string> {
    const found = await this.api('GET', `/customers?cpfCnpj=${customer.cpfCnpj}&limit=10`, 'prepare');
    if (found.status !== 200) throw providerErrorFor(found.status, found.body, 'find customer');
    const existing = (found.body as AsaasList<AsaasCustomer>).data.find((c) => !c.deleted && c.cpfCnpj === customer.cpfCnpj);
    if (existing) return existing.id;
    const created = await this.api('POST', '/customers', 'prepare', customer);
    if (created.status !== 200) throw providerErrorFor(created.status, created.body, 'create customer');
    return (created.body as AsaasCustomer).id;
  }

  /**
   * Asaas documents neither an idempotency key nor that a 5xx creates nothing. A 5xx is a finished
   * answer, so one read by reference settles it: found → that is our charge; not found → not
   * created (a create still running inside Asaas at that instant is the race described above), and
   * the wire table's error stands. If the read fails too, the outcome is ambiguous.
   */
  private async postPayment(paymentRequest: AsaasPaymentRequest, method: CreateChargeInput['method']): Promise<AsaasPayment> {
    let answer: HttpAnswer;
    try {
      answer = await this.api('POST', '/payments', { operation: 'create', method }, paymentRequest);
    } catch (error) {
      if (!(error instanceof ProviderError) || (error.httpStatus ?? 0) < 500) throw error;
      let found: AsaasPayment | undefined;
      try {
        found = await this.findByExternalReference(paymentRequest.externalReference, 'read');
      } catch {
        throw new ProviderError('ambiguous', error.normalizedCode, `${error.message} (read-back failed)`, error.httpStatus);
      }
      if (found) return found;
      // Nothing under our reference: nothing was created, whatever the method.
      throw new ProviderError('not_created', error.kind === 'ambiguous' ? 'provider_error' : error.normalizedCode, error.message, error.httpStatus);
    }
    if (answer.status === 200) return answer.body as AsaasPayment;
    // A card sent in the call and refused (issuer, number, expiry): no charge was created.
    if (answer.status === 400 && errorCode(answer.body) === 'invalid_creditCard' && 'creditCard' in paymentRequest) throw new AsaasCardRefused(errorDescriptionOf(answer.body));
    const refused = providerErrorFor(answer.status, answer.body, 'create payment');
    // A split Asaas refuses (a wallet it does not know, parts above the net value) is about our request.
    if (errorCode(answer.body) === 'invalid_split') {
      throw new ProviderError('rejected', 'provider_rejected', refused.message, answer.status, { name: 'splits', publicMessage: 'O Asaas recusou a divisão do pagamento: confira as carteiras e os valores das subcontas.' });
    }
    throw refused;
  }

  /**
   * The QR code of a pending Pix charge, the Pix transaction of a paid one, the linha digitável of
   * a pending boleto; all best effort.
   */
  private async detailsOf(payment: AsaasPayment): Promise<ChargeDetails> {
    // A card charge's next action is its invoiceUrl, already on the payment.
    if (payment.deleted || isHostedCheckout(payment)) return {};
    const status = mapPaymentStatus(payment.status);
    try {
      if (payment.billingType === 'BOLETO') {
        if (status !== 'pending') return {};
        const field = await this.api('GET', `/payments/${encodeURIComponent(payment.id)}/identificationField`, 'read');
        return field.status === 200 && typeof (field.body as AsaasIdentificationField).identificationField === 'string' ? { boleto: field.body as AsaasIdentificationField } : {};
      }
      if (status === 'pending') {
        const qr = await this.api('GET', `/payments/${encodeURIComponent(payment.id)}/pixQrCode`, 'read');
        return qr.status === 200 ? { qr: qr.body as AsaasPixQrCode } : {};
      }
      if (status === 'paid' && payment.pixTransaction) {
        const tx = await this.api('GET', `/pix/transactions/${encodeURIComponent(payment.pixTransaction)}`, 'read');
        return tx.status === 200 ? { pixTransaction: tx.body as AsaasPixTransaction } : {};
      }
    } catch {
      // The charge itself was read; what is missing is a convenience.
    }
    return {};
  }

  private async readPayment(id: string): Promise<AsaasPayment> {
    const answer = await this.api('GET', `/payments/${encodeURIComponent(id)}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get payment');
    return answer.body as AsaasPayment;
  }

  async getCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const payment = await this.readPayment(providerPaymentId);
    const charge = toProviderCharge(payment, await this.detailsOf(payment));
    // Estornos ride on the payment object (docs.asaas.com/docs/refunds); see asaas.refunds.ts.
    const refunds = toProviderRefunds(payment.id, (payment as { refunds?: AsaasRefund[] | null }).refunds);
    return refunds.length > 0 ? { ...charge, refunds } : charge;
  }

  /** Idempotent by our refund id carried in the description (asaas.refunds.ts). */
  refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    return refundAsaasPayment((method, path, operation, body) => this.api(method, path, operation, body), input);
  }

  async cancelCharge(providerPaymentId: string): Promise<ProviderCharge> {
    const answer = await this.api('DELETE', `/payments/${encodeURIComponent(providerPaymentId)}`, 'write');
    // Not removable (already received): answer the charge as it is, so a caller canceling a charge
    // that was just paid learns it was paid.
    const notRemovable = answer.status === 400 && errorCode(answer.body) === 'invalid_action';
    if (answer.status !== 200 && !notRemovable) throw providerErrorFor(answer.status, answer.body, 'delete payment');
    return this.getCharge(providerPaymentId);
  }

  /**
   * Creates the account's webhook with a fresh random `authToken`, which Asaas sends back in the
   * `asaas-access-token` header: returned as the signing secret. Webhooks of ours already at the
   * same URL are removed first, so re-registering neither duplicates deliveries nor hits the limit
   * of 10 per account.
   */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    const authToken = newAuthToken();
    const sameEndpoint = (other: string) => other.split('?')[0] === url.split('?')[0];
    const list = await this.api('GET', '/webhooks?limit=100', 'read');
    if (list.status !== 200) throw providerErrorFor(list.status, list.body, 'list webhooks');
    for (const old of (list.body as AsaasList<{ id: string; url: string }>).data.filter((w) => sameEndpoint(w.url))) {
      const removed = await this.api('DELETE', `/webhooks/${encodeURIComponent(old.id)}`, 'write');
      if (removed.status !== 200 && removed.status !== 404) throw providerErrorFor(removed.status, removed.body, 'delete webhook');
    }
    const answer = await this.api('POST', '/webhooks', 'write', {
      name: 'Orquestra',
      url,
      ...(this.webhookEmail ? { email: this.webhookEmail } : {}),
      sendType: 'SEQUENTIALLY',
      enabled: true,
      interrupted: false,
      authToken,
      events: WEBHOOK_EVENTS,
    });
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'create webhook');
    return { signingSecret: authToken };
  }

  /**
   * Authentic when `asaas-access-token` equals the authToken we registered. Accounts whose webhook
   * was set up without one (no signing secret stored) fall back to our secret in the URL (`?hmac=`).
   */
  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseAsaasWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    // A card refused on the invoice page is reported only by the event (the charge stays PENDING
    // at Asaas, payable by another card): the intake turns it into a failed payment.
    const decline = asaasCardDecline(parsed.event);
    // A chargeback rides on the payment (asaas.chargebacks.ts). The body is authenticated by the
    // token, so it is the report; redeliveries dedupe by the event id, and payments only moves a
    // dispute forward. A chargeback status we do not know is not guessed: the event is acknowledged.
    const chargeback = chargebackOf(parsed.payment);
    if (chargeback.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return {
      ok: true,
      // A charge's creation says nothing new about it (we made it, or it is a Pix Automático cycle,
      // which parseRecurrenceWebhook reads): no read at Asaas for it.
      providerPaymentIds: parsed.event === 'PAYMENT_CREATED' ? [] : parsed.paymentIds,
      eventKey: `asaas:${parsed.eventId}`,
      ...(chargeback.kind === 'dispute' ? { disputes: [chargeback.dispute] } : {}),
      ...(decline && parsed.paymentIds.length > 0 ? { cardDeclines: Object.fromEntries(parsed.paymentIds.map((id) => [id, { failureCode: decline, failureReason: declineReason(decline) }])) } : {}),
    };
  }

  private authentic(webhook: WebhookRequest): boolean {
    const token = Object.entries(webhook.headers).find(([name]) => name.toLowerCase() === AUTH_TOKEN_HEADER)?.[1];
    return this.#signingSecret ? sameSecret(token, this.#signingSecret) : sameSecret(webhook.query['hmac'], this.#webhookSecret);
  }

  // --- balance and transfers (asaas.transfers.ts) --------------------------------------------

  getBalance(): Promise<ProviderBalance> {
    return asaasBalance((m, p, o, b) => this.api(m, p, o, b));
  }

  /** Idempotent by our payout id in `externalReference`, looked up before any create. */
  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    return createAsaasTransfer((m, p, o, b) => this.api(m, p, o, b), input);
  }

  getTransfer(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return getAsaasTransfer((m, p, o, b) => this.api(m, p, o, b), input);
  }

  /** The same delivery parseWebhook reads, authenticated the same way; the transfer a `TRANSFER_*` event names. */
  parseTransferWebhook(webhook: WebhookRequest): TransferWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseAsaasWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, eventKey: `asaas:${parsed.eventId}`, transfers: parsed.transfer ? [parsed.transfer] : [] };
  }

  // --- subaccounts (asaas.subaccounts.ts) ---------------------------------------------------

  /** Idempotent by our subaccount id in `externalReference`; only the first answer carries the apiKey (`issuedSecret`). */
  createSubaccount(input: CreateSubaccountInput): Promise<ProviderSubaccount> {
    return createAsaasSubaccount((m, p, o, b, k) => this.api(m, p, o, b, k), input);
  }

  /** Needs the subaccount's apiKey: Asaas answers its approval status only to it. */
  getSubaccount(providerSubaccountId: string, issuedSecret?: string): Promise<ProviderSubaccount> {
    return getAsaasSubaccount((m, p, o, b, k) => this.api(m, p, o, b, k), providerSubaccountId, issuedSecret);
  }

  /**
   * The same delivery parseWebhook reads, authenticated the same way; the subaccount an
   * `ACCOUNT_STATUS_*` event names (by its Asaas id only: the event carries no externalReference).
   */
  parseSubaccountWebhook(webhook: WebhookRequest): SubaccountWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseAsaasWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, eventKey: `asaas:${parsed.eventId}`, subaccounts: parsed.subaccount ? [{ providerSubaccountId: parsed.subaccount }] : [] };
  }

  /** A transfer made with the subaccount's own apiKey to the Pix key saved at its creation (asaas.withdrawals.ts). */
  withdrawFromSubaccount(input: SubaccountWithdrawalInput): Promise<ProviderTransfer> {
    return withdrawFromAsaasSubaccount((m, p, o, b, k) => this.api(m, p, o, b, k), input);
  }

  getSubaccountWithdrawal(lookup: SubaccountWithdrawalLookup): Promise<ProviderTransfer> {
    return getAsaasSubaccountWithdrawal((m, p, o, b, k) => this.api(m, p, o, b, k), lookup);
  }

  /** The subaccount's own balance, read with its apiKey. */
  getSubaccountBalance(_providerSubaccountId: string, issuedSecret?: string): Promise<SubaccountBalance> {
    return asaasSubaccountBalance((m, p, o, b, k) => this.api(m, p, o, b, k), issuedSecret);
  }

  // --- Pix Automático (asaas.recurrences.ts) -------------------------------------------------

  createRecurrence(input: CreateRecurrenceInput): Promise<ProviderRecurrence> {
    return this.#recurrences.create(input);
  }

  getRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence> {
    return this.#recurrences.get(providerRecurrenceId);
  }

  cancelRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence> {
    return this.#recurrences.cancel(providerRecurrenceId);
  }

  /** Asaas creates each cycle's charge itself: CycleChargeNotApplicableError. */
  createCycleCharge(_input: CreateCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.createCycleCharge();
  }

  getCycleCharge(input: GetCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.getCycleCharge(input.providerChargeId);
  }

  /** The same delivery parseWebhook reads, authenticated the same way; its authorization and cycle changes. */
  parseRecurrenceWebhook(webhook: WebhookRequest): RecurrenceWebhookParseResult {
    if (!this.authentic(webhook)) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const parsed = parseAsaasRecurrenceWebhookBody(webhook.rawBody);
    return parsed.kind === 'malformed' ? { ok: false, reason: 'malformed', httpStatus: 400 } : { ok: true, eventKey: parsed.eventKey, events: parsed.events };
  }
}

/**
 * Efí adapter (API Pix, and boleto through the API Cobranças in efi.cobrancas.ts): its own HTTP parts only (OAuth token, requests); the pool with the account's
 * client certificate and the wire table are http/provider-http.ts.
 * Conversions and the error table live in efi.transformers.ts.
 *
 * Efí's Pix API requires the account's client certificate on every call (mTLS) and a Bearer token
 * from `POST /oauth/token` (client_credentials, HTTP Basic). Charges are Banco Central immediate
 * charges (`cob`) whose txid is derived from our idempotency key, which makes creation idempotent.
 *
 * Boleto is Cobranças' `POST /v1/charge/one-step` with `banking_billet` (efi.cobrancas.ts); a
 * boleto's provider payment id is its numeric `charge_id`, which getCharge/cancelCharge route there.
 *
 * Cards are not charged here: Efí's card `payment_token` is minted only by its browser script
 * (`EfiPay.CreditCard…getPaymentToken()`, encrypting the card for the account's payee code), and
 * the provider facts name no server-side tokenization endpoint, so a card from our vault cannot
 * become a `payment_token` (hence no `card` method and no `vaultCards`).
 *
 * Over 300 lines as the one class an account's adapter is: each capability's calls live in their
 * own file (efi.infracoes.ts, efi.refunds.ts, efi.recurrences.ts, efi.payouts.ts) and this class only delegates to them.
 */
import { assertNever } from '@orquestra/platform';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { ProviderHttp, type HttpAnswer, type HttpExchangeObserver } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import {
  ProviderError,
  RefundNotSupportedError,
  refuseOtherMethods,
  type CreateChargeInput,
  type ProviderAdapter,
  type ProviderCharge,
  type ProviderRefund,
  type RefundChargeInput,
  type WebhookParseResult,
  type WebhookRegistration,
  type WebhookRequest,
} from '../provider-adapter';
import type { DisputeEvidenceInput, ListDisputesInput, ProviderDispute } from '../provider-disputes';
import type { CreateTransferInput, PayoutCapable, ProviderBalance, ProviderTransfer, TransferWebhookParseResult } from '../provider-payouts';
import type {
  CreateCycleChargeInput,
  CreateRecurrenceInput,
  GetCycleChargeInput,
  ProviderCycleCharge,
  ProviderRecurrence,
  RecurrenceCapable,
  RecurrenceWebhookParseResult,
  RetryCycleChargeInput,
} from '../provider-recurrences';
import { cobrancaNotificationToken, cobrancasBaseUrlFor, EfiCobrancas, isCobrancaId } from './efi.cobrancas';
import { EfiPayouts, parseEfiEnvioWebhookBody } from './efi.payouts';
import { EfiRecurrences } from './efi.recurrences';
import { parseEfiRecurrenceWebhookBody } from './efi.recurrences.transformers';
import { listEfiInfracoes, submitEfiDefesa } from './efi.infracoes';
import { decodeEfiListCursor, EFI_BOLETOS_NOT_LISTED_NOTE, EFI_LIST_PAGE_SIZE, EFI_LIST_PAGE_SIZE_MAX, efiBoletoListPage, efiCobListPage, efiCobListPath, type EfiCobList } from './efi.listing';
import type { ChargeListingCapable, ChargePage, ChargePeriod } from '../provider-charge-listing';
import {
  buildCobRequest,
  txidForIdempotencyKey,
  valorToCents,
  type EfiCob,
  type EfiCobRequest,
  type EfiDevolucao,
  type EfiQrCode,
  type EfiTokenResponse,
  toProviderCharge,
  toProviderRefund,
} from './efi.transformers';
import { buildDevolucaoRequest, devolucaoIdFor } from './efi.refunds';
import { parseEfiWebhookBody } from './efi.webhook';
import { errorName, providerErrorFor } from './efi.errors';

export interface EfiAdapterOptions {
  /** e.g. `https://pix.api.efipay.com.br` (sandbox `https://pix-h.api.efipay.com.br`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The account's client certificate and key (PEM), presented on every call. */
  certificatePem: string;
  privateKeyPem: string;
  /** An extra CA to trust for the API's server certificate (emulator, private CA), besides the system CAs. */
  caPem?: string;
  /** The account's Pix key: charges are paid to it, webhooks are registered on it. */
  chave: string;
  /** Per-request limit for connecting and for waiting on an answer (undici's timers tick at ~0.5–1 s). */
  timeoutMs: number;
  /** Per-account secret carried in the registered webhook URL (`?hmac=`). */
  webhookSecret: string;
  /**
   * Our intake URL for this account: boletos send their notifications there (with `hmac` and the
   * charge id). Without it a boleto is created without notifications (its status is then read only).
   */
  webhookUrl?: string;
  /** Items per page of `GET /v2/cob` for reconciliation (default 100, at most 1000). */
  listPageSize?: number;
  /** The API Cobranças origin; derived from `baseUrl` when absent (efi.cobrancas.ts cobrancasBaseUrlFor). */
  cobrancasBaseUrl?: string;
  observe?: HttpExchangeObserver;
}

/** Refresh a token this long before Efí says it expires, so no request carries a dying one. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;

export class EfiAdapter implements ProviderAdapter, RecurrenceCapable, PayoutCapable, ChargeListingCapable {
  /** Pix (API Pix) and boleto (API Cobranças); no card: see the file comment. */
  static readonly methods = ['pix', 'boleto'] as const;
  /** Pix sent to a key (efi.payouts.ts). */
  static readonly payoutDestinations = ['pix_key'] as const;
  readonly payoutDestinations = EfiAdapter.payoutDestinations;
  readonly provider = 'efi';
  // Private fields: secrets never show up in util.inspect, JSON.stringify or logged objects.
  readonly #clientSecret: string;
  readonly #webhookSecret: string;
  readonly #http: ProviderHttp;
  #token: { value: string; refreshAt: number } | undefined;
  #tokenInFlight: Promise<string> | undefined;
  /** Pix Automático (efi.recurrences.ts). */
  readonly #recurrences: EfiRecurrences;
  /** Balance and Pix sent (efi.payouts.ts). */
  readonly #payouts: EfiPayouts;
  /** Boleto (efi.cobrancas.ts). */
  readonly #cobrancas: EfiCobrancas;
  readonly #webhookUrl: string | undefined;
  /** The non-secret options. */
  private readonly options: Pick<EfiAdapterOptions, 'clientId' | 'chave'> & { listPageSize: number };

  constructor(options: EfiAdapterOptions) {
    this.options = { clientId: options.clientId, chave: options.chave, listPageSize: Math.min(Math.max(options.listPageSize ?? EFI_LIST_PAGE_SIZE, 1), EFI_LIST_PAGE_SIZE_MAX) };
    this.#clientSecret = options.clientSecret;
    this.#webhookSecret = options.webhookSecret;
    this.#http = new ProviderHttp({
      provider: this.provider,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      // The account's client certificate (mTLS) on every call.
      tls: { certificatePem: options.certificatePem, privateKeyPem: options.privateKeyPem, caPem: options.caPem },
      ...(options.observe ? { observe: options.observe } : {}),
    });
    this.#recurrences = new EfiRecurrences((m, p, o, b, h) => this.api(m, p, o, b, h), options.chave);
    this.#payouts = new EfiPayouts((m, p, o, b) => this.api(m, p, o, b), options.chave);
    this.#webhookUrl = options.webhookUrl;
    this.#cobrancas = new EfiCobrancas({
      baseUrl: options.cobrancasBaseUrl ?? cobrancasBaseUrlFor(options.baseUrl),
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      tls: { certificatePem: options.certificatePem, privateKeyPem: options.privateKeyPem, ...(options.caPem ? { caPem: options.caPem } : {}) },
      timeoutMs: options.timeoutMs,
      ...(options.observe ? { observe: options.observe } : {}),
    });
  }

  /** Releases the connection pools. */
  async close(): Promise<void> {
    await Promise.all([this.#http.close(), this.#cobrancas.close()]);
  }

  private send(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'prepare' | 'read' | 'write', headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
    if (body === undefined) return this.#http.send({ method, path, purpose, headers });
    return this.#http.send({ method, path, purpose, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.#clientSecret}`).toString('base64');
    // A token is a `prepare`: whatever goes wrong getting one, no charge was sent.
    const answer = await this.send('POST', '/oauth/token', 'prepare', { authorization: `Basic ${basic}` }, { grant_type: 'client_credentials' });
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'oauth token');
    const token = answer.body as Partial<EfiTokenResponse> | undefined;
    if (typeof token?.access_token !== 'string' || typeof token.expires_in !== 'number') {
      throw new ProviderError('not_created', 'provider_error', 'efi oauth token: answer without access_token/expires_in', answer.status);
    }
    const lifetimeMs = Math.max(0, token.expires_in * 1000);
    this.#token = { value: token.access_token, refreshAt: Date.now() + Math.max(lifetimeMs - TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2) };
    return token.access_token;
  }

  /** The cached token, or one fetched now; concurrent callers share one fetch. */
  private token(forceRefresh = false): Promise<string> {
    if (!forceRefresh && this.#token && Date.now() < this.#token.refreshAt) return Promise.resolve(this.#token.value);
    if (forceRefresh) this.#token = undefined;
    this.#tokenInFlight ??= this.fetchToken().finally(() => {
      this.#tokenInFlight = undefined;
    });
    return this.#tokenInFlight;
  }

  /** A `/v2` call with the Bearer token; on 401 the token is refreshed and the call made once more. */
  private async api(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'read' | 'write', body?: unknown, extraHeaders: Record<string, string> = {}): Promise<HttpAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.token(attempt > 0);
      const answer = await this.send(method, path, purpose, { authorization: `Bearer ${token}`, ...extraHeaders }, body);
      // A 401 is answered before the request is acted on, so repeating it is safe. One retry only:
      // a second 401 with a brand-new token means the credentials lost access.
      if (answer.status !== 401 || attempt > 0) return answer;
    }
  }

  async verifyCredentials(): Promise<void> {
    await this.token(true);
  }

  async createCharge(input: CreateChargeInput): Promise<ProviderCharge> {
    refuseOtherMethods(this.provider, EfiAdapter.methods, input.method);
    if (input.method === 'boleto') return this.#cobrancas.create(input, this.#webhookUrl, this.#webhookSecret);
    const txid = txidForIdempotencyKey(input.idempotencyKey);
    let cobRequest: EfiCobRequest;
    try {
      cobRequest = buildCobRequest(input, this.options.chave);
    } catch (err) {
      // An amount Pix cannot carry (zero, fractional, over 10 integer digits) fails anywhere.
      throw new ProviderError('rejected', 'provider_rejected', `efi create: ${(err as Error).message}`);
    }
    // A token failure surfaces here as not_created: it happens before the cob is sent.
    const cob = await this.createOrReadCob(txid, cobRequest);
    if (valorToCents(cob.valor.original) !== input.amount) {
      throw new ProviderError('rejected', 'provider_rejected', `efi create: txid ${txid} already holds a charge of another amount`);
    }
    return toProviderCharge(cob, cob.status === 'ATIVA' ? await this.qrCodeOf(cob) : undefined);
  }

  /** PUT the cob; when the txid is taken (a repeat of this create), read the existing one. */
  private async createOrReadCob(txid: string, cobRequest: EfiCobRequest): Promise<EfiCob> {
    const answer = await this.api('PUT', `/v2/cob/${txid}`, { operation: 'create', method: 'pix' }, cobRequest);
    if (answer.status === 201 || answer.status === 200) return answer.body as EfiCob;
    if (errorName(answer.body) === 'txid_duplicado') return this.readCob(txid);
    throw providerErrorFor(answer.status, answer.body, 'create cob');
  }

  private async readCob(txid: string): Promise<EfiCob> {
    const answer = await this.api('GET', `/v2/cob/${encodeURIComponent(txid)}`, 'read');
    if (answer.status === 200) return answer.body as EfiCob;
    throw providerErrorFor(answer.status, answer.body, 'get cob');
  }

  /** The QR image is a convenience: without it the charge is still payable by its copy-paste code. */
  private async qrCodeOf(cob: EfiCob): Promise<EfiQrCode | undefined> {
    if (!cob.loc?.id) return undefined;
    try {
      const answer = await this.api('GET', `/v2/loc/${cob.loc.id}/qrcode`, 'read');
      return answer.status === 200 ? (answer.body as EfiQrCode) : undefined;
    } catch {
      return undefined;
    }
  }

  async getCharge(providerPaymentId: string): Promise<ProviderCharge> {
    if (isCobrancaId(providerPaymentId)) return this.#cobrancas.get(providerPaymentId);
    try {
      return toProviderCharge(await this.readCob(providerPaymentId));
    } catch (error) {
      // No cob: a paid Pix Automático cycle (cobr) is a received Pix too, refunded like one.
      if (!(error instanceof ProviderError) || error.kind !== 'not_found') throw error;
      const cycle = await this.#recurrences.paidCobrAsCharge(providerPaymentId);
      if (cycle) return cycle;
      throw error;
    }
  }

  async cancelCharge(providerPaymentId: string): Promise<ProviderCharge> {
    if (isCobrancaId(providerPaymentId)) return this.#cobrancas.cancel(providerPaymentId);
    const answer = await this.api('PATCH', `/v2/cob/${encodeURIComponent(providerPaymentId)}`, 'write', {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    });
    if (answer.status === 200) return toProviderCharge(answer.body as EfiCob);
    // No longer ATIVA (paid, expired, already removed): answer the charge as it is, so a caller
    // canceling a charge that was just paid learns it was paid.
    if (errorName(answer.body) === 'status_cobranca_invalido') return this.getCharge(providerPaymentId);
    throw providerErrorFor(answer.status, answer.body, 'cancel cob');
  }

  /**
   * `PUT /v2/pix/:e2eId/devolucao/:id` with the devolução id derived from our refund id. Banco
   * Central accepts each id once; when the PUT is refused and a devolução with this id already
   * exists for the same amount, it is our own earlier attempt (a retry after a lost answer), and
   * that devolução is the answer.
   */
  async refundCharge(input: RefundChargeInput): Promise<ProviderRefund> {
    if (isCobrancaId(input.providerPaymentId)) {
      throw new RefundNotSupportedError(
        'efi refund: Efí has no refund of a paid boleto by API',
        'A Efí não devolve boletos pagos pela API. Faça a devolução ao pagador pelo painel da Efí ou por Pix.',
      );
    }
    let id: string;
    let body;
    try {
      id = devolucaoIdFor(input.refundId);
      body = buildDevolucaoRequest(input.amount, input.reason);
    } catch (err) {
      throw new ProviderError('rejected', 'provider_rejected', `efi refund: ${(err as Error).message}`);
    }
    const endToEndId = input.endToEndId || (await this.endToEndIdOf(input.providerPaymentId));
    const path = `/v2/pix/${encodeURIComponent(endToEndId)}/devolucao/${id}`;
    const answer = await this.api('PUT', path, 'write', body);
    if (answer.status === 201 || answer.status === 200) return toProviderRefund(answer.body as EfiDevolucao);
    const error = providerErrorFor(answer.status, answer.body, 'refund');
    if (error.kind === 'rejected') {
      const existing = await this.api('GET', path, 'read').catch(() => undefined);
      const devolucao = existing?.status === 200 ? (existing.body as EfiDevolucao) : undefined;
      if (devolucao && devolucao.valor === body.valor) return toProviderRefund(devolucao);
    }
    throw error;
  }

  /** The end-to-end id of the Pix that paid a charge (a refund of an unpaid charge is refused). */
  private async endToEndIdOf(txid: string): Promise<string> {
    const cob = await this.readCob(txid);
    const paid = cob.pix?.[0]?.endToEndId;
    if (!paid) throw new ProviderError('rejected', 'provider_rejected', `efi refund: charge ${txid} has no received Pix`);
    return paid;
  }

  /**
   * One page of the charges created in the period (efi.listing.ts): the Pix ones from `GET /v2/cob`
   * by creation time, oldest first, then the boletos of the API Cobranças page by page.
   */
  async listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage> {
    const page = decodeEfiListCursor(cursor);
    const size = this.options.listPageSize;
    if (typeof page !== 'number') {
      let listed;
      try {
        listed = await this.#cobrancas.listPage(period, page.page, size);
      } catch (error) {
        // An Efí app without the API Cobranças scope (a Pix-only account) is refused there (its Pix
        // calls worked, so the credentials themselves are good): its Pix pages must not be lost
        // with the whole account, and the run must say its boletos were not checked.
        if (error instanceof ProviderError && error.kind === 'invalid_credentials') return { charges: [], next: null, notes: [EFI_BOLETOS_NOT_LISTED_NOTE] };
        throw error;
      }
      return efiBoletoListPage(listed, period, page, size);
    }
    const answer = await this.api('GET', efiCobListPath(period, page, size), 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list cobs');
    return efiCobListPage(answer.body as EfiCobList, period, page, size);
  }

  /** MED notices opened in the window (efi.infracoes.ts). */
  listDisputes(input: ListDisputesInput): Promise<ProviderDispute[]> {
    return listEfiInfracoes((m, p, o, b) => this.api(m, p, o, b), input);
  }

  /** The defense of a notice: analise "rejeitado", justificativa = text and links (efi.infracoes.ts). */
  submitDisputeEvidence(input: DisputeEvidenceInput): Promise<void> {
    return submitEfiDefesa((m, p, o, b) => this.api(m, p, o, b), input);
  }

  /**
   * Registers `<url>?hmac=<secret>&ignorar=`. Efí posts to the registered string + "/pix", so the
   * suffix lands in the `ignorar` parameter and the route stays the same; the secret authenticates
   * Efí since our edge does not do mTLS (hence `x-skip-mtls-checking: true`).
   */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    const answer = await this.api('PUT', `/v2/webhook/${encodeURIComponent(this.options.chave)}`, 'write', { webhookUrl: this.webhookUrlFor(url) }, {
      'x-skip-mtls-checking': 'true',
    });
    if (answer.status === 200 || answer.status === 201 || answer.status === 204) return {};
    throw providerErrorFor(answer.status, answer.body, 'register webhook');
  }

  /** Our intake URL with the secret in `hmac` and an empty `ignorar` that takes Efí's suffix (`/pix`, `/rec`, `/cobr`). */
  private webhookUrlFor(url: string): string {
    const target = new URL(url);
    target.searchParams.delete('hmac');
    target.searchParams.delete('ignorar');
    target.searchParams.append('hmac', this.#webhookSecret);
    return `${target.toString()}&ignorar=`;
  }

  parseWebhook(webhook: WebhookRequest): WebhookParseResult {
    if (!this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const boleto = this.cobrancaNotification(webhook);
    if (boleto) return boleto.ok ? { ok: true, providerPaymentIds: [boleto.chargeId], eventKey: `efi:cobranca:${boleto.token}` } : { ok: false, reason: 'malformed', httpStatus: 400 };
    const parsed = parseEfiWebhookBody(webhook.rawBody);
    switch (parsed.kind) {
      case 'pix':
        return { ok: true, providerPaymentIds: parsed.txids, eventKey: parsed.eventKey };
      case 'registration_test':
        // Efí only keeps the URL if this test notification gets a 2xx; it names no charge.
        return { ok: true, providerPaymentIds: [], eventKey: parsed.eventKey };
      case 'malformed':
        return { ok: false, reason: 'malformed', httpStatus: 400 };
      default:
        return assertNever(parsed);
    }
  }

  /**
   * A boleto notification: our URL carries `charge_id` (efi.cobrancas.ts) and the body is
   * `notification=<token>`. Undefined for any other delivery.
   */
  private cobrancaNotification(webhook: WebhookRequest): { ok: true; chargeId: string; token: string } | { ok: false } | undefined {
    const chargeId = webhook.query['charge_id'];
    if (chargeId === undefined) return undefined;
    const token = cobrancaNotificationToken(webhook.rawBody);
    return isCobrancaId(chargeId) && token ? { ok: true, chargeId, token } : { ok: false };
  }

  private sameSecret(candidate: string | undefined): boolean {
    if (candidate === undefined || this.#webhookSecret.length === 0) return false;
    // Compare digests: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
    const expected = createHash('sha256').update(this.#webhookSecret).digest();
    const actual = createHash('sha256').update(candidate).digest();
    return timingSafeEqual(expected, actual);
  }

  // --- Pix Automático (efi.recurrences.ts) ---------------------------------------------------

  createRecurrence(input: CreateRecurrenceInput): Promise<ProviderRecurrence> {
    return this.#recurrences.create(input);
  }

  getRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence> {
    return this.#recurrences.get(providerRecurrenceId);
  }

  cancelRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence> {
    return this.#recurrences.cancel(providerRecurrenceId);
  }

  createCycleCharge(input: CreateCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.createCycleCharge(input);
  }

  getCycleCharge(input: GetCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.getCycleCharge(input.providerChargeId);
  }

  retryCycleCharge(input: RetryCycleChargeInput): Promise<ProviderCycleCharge> {
    return this.#recurrences.retryCycleCharge(input);
  }

  /** `webhookrec` and `webhookcobr` at our intake URL, authenticated as the Pix webhook is. */
  registerRecurrenceWebhooks(url: string): Promise<void> {
    return this.#recurrences.registerWebhooks(this.webhookUrlFor(url));
  }

  parseRecurrenceWebhook(webhook: WebhookRequest): RecurrenceWebhookParseResult {
    if (!this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    // A boleto notification is parseWebhook's alone.
    if (this.cobrancaNotification(webhook)?.ok) return { ok: true, eventKey: `efi:cobranca:${webhook.query['charge_id']}`, events: [] };
    const parsed = parseEfiRecurrenceWebhookBody(webhook.rawBody);
    switch (parsed.kind) {
      case 'events':
        return { ok: true, eventKey: parsed.eventKey, events: parsed.events };
      case 'other': {
        // A Pix notification or the registration test: parseWebhook's to read.
        const pix = this.parseWebhook(webhook);
        return pix.ok ? { ok: true, eventKey: pix.eventKey, events: [] } : pix;
      }
      case 'malformed':
        return { ok: false, reason: 'malformed', httpStatus: 400 };
      default:
        return assertNever(parsed);
    }
  }

  // --- Payouts (efi.payouts.ts) ---------------------------------------------------------------

  getBalance(): Promise<ProviderBalance> {
    return this.#payouts.balance();
  }

  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    return this.#payouts.create(input);
  }

  getTransfer(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return this.#payouts.get(input.payoutId);
  }

  /** Pix-sent notifications arrive at the same URL as received Pix, authenticated alike. */
  parseTransferWebhook(webhook: WebhookRequest): TransferWebhookParseResult {
    if (!this.sameSecret(webhook.query['hmac'])) return { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    if (this.cobrancaNotification(webhook)?.ok) return { ok: true, eventKey: `efi:cobranca:${webhook.query['charge_id']}`, transfers: [] };
    const parsed = parseEfiEnvioWebhookBody(webhook.rawBody);
    if (parsed.kind === 'malformed') return { ok: false, reason: 'malformed', httpStatus: 400 };
    return { ok: true, eventKey: parsed.eventKey, transfers: parsed.sends.map(({ idEnvio, payoutId }) => ({ providerTransferId: idEnvio, ...(payoutId ? { payoutId } : {}) })) };
  }
}

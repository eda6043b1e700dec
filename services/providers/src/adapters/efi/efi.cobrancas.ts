/**
 * Efí's API Cobranças for boleto (`banking_billet`), **integer cents** (../shared/providers/
 * psp-apis.md §1): its own host (`cobrancas.api.efipay.com.br`, sandbox `cobrancas-h…`), its own
 * token (`POST /v1/authorize`, the same client credentials with the Cobranças scope), and:
 * - create `POST /v1/charge/one-step`. Efí takes no idempotency key, so our key (hashed) is the
 *   charge's `metadata.custom_id` and every create first lists the account's boletos of the last
 *   days with that `custom_id` (`GET /v1/charges`), answering the one found (as Asaas does with
 *   `externalReference`; two concurrent creates with one key could still both create);
 * - Efí notifies a change by POSTing `notification=<token>` to the charge's `notification_url`,
 *   which names no charge; so once the charge exists its URL is set (`PUT /v1/charge/:id/metadata`)
 *   to our intake URL with the secret `hmac` and `charge_id`, and parseWebhook reads the charge id
 *   from there and getCharge reads the status (`GET /v1/charge/:id`);
 * - cancel `PUT /v1/charge/:id/cancel`. Boleto refunds do not exist at Efí.
 * A boleto's provider payment id is its numeric `charge_id`; a Pix `txid` has 26–35 characters,
 * so `isCobrancaId` tells them apart.
 *
 * Over 300 lines: Efí's API Cobranças is a second API (its own auth, boleto wire types, webhook
 * callback and status map) kept whole apart from the Pix API.
 */
import { assertNever, numericTaxId } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { boletoDueDate, endOfDueDate } from '../../domain/boleto-due-date';
import { ProviderHttp, type HttpAnswer, type HttpExchangeObserver } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import { ProviderError, type CreateChargeInput, type ProviderCharge, type ProviderChargeStatus } from '../provider-adapter';
import type { ChargePeriod, ListedCharge } from '../provider-charge-listing';
import { providerErrorFor } from './efi.errors';

export type EfiCobrancaStatus = 'new' | 'waiting' | 'link' | 'paid' | 'unpaid' | 'canceled' | 'identified' | 'settled' | 'expired';

export interface EfiBilletCustomer {
  name?: string;
  cpf?: string;
  juridical_person?: { corporate_name: string; cnpj: string };
  email?: string;
  phone_number?: string;
  address: { street: string; number: string; neighborhood: string; zipcode: string; city: string; state: string; complement?: string };
}

export interface EfiOneStepBilletRequest {
  items: { name: string; value: number; amount: number }[];
  metadata: { custom_id: string };
  payment: { banking_billet: { customer: EfiBilletCustomer; expire_at: string } };
}

/** A charge as `GET /v1/charge/:id` answers it (fields this adapter reads). */
export interface EfiCobranca {
  charge_id: number;
  total: number;
  status: EfiCobrancaStatus;
  custom_id?: string | null;
  notification_url?: string | null;
  paid_at?: string | null;
  payment?: { method?: string; banking_billet?: { barcode?: string; link?: string; billet_link?: string; pdf?: { charge?: string }; expire_at?: string } } | null;
}

/** The one-step answer's `data`. */
export interface EfiOneStepData {
  charge_id: number;
  total: number;
  status: EfiCobrancaStatus;
  barcode?: string;
  link?: string;
  billet_link?: string;
  pdf?: { charge?: string };
  expire_at?: string;
}

export function isCobrancaId(providerPaymentId: string): boolean {
  return /^\d{1,12}$/.test(providerPaymentId);
}

/** Real Efí hosts map Pix → Cobranças; anything else (the emulator, a proxy) serves both at one origin. */
export function cobrancasBaseUrlFor(pixBaseUrl: string): string {
  const url = new URL(pixBaseUrl);
  if (url.hostname === 'pix.api.efipay.com.br') return 'https://cobrancas.api.efipay.com.br';
  if (url.hostname === 'pix-h.api.efipay.com.br') return 'https://cobrancas-h.api.efipay.com.br';
  return url.origin;
}

/** Our idempotency key as `custom_id` (≤ 255): a short digest, the same for the same key. */
export function customIdFor(idempotencyKey: string): string {
  return `orq_${createHash('sha256').update(`orquestra:efi:boleto:${idempotencyKey}`).digest('hex').slice(0, 40)}`;
}

/**
 * The one-step body. Efí requires the payer's name with CPF (or a company's name with CNPJ);
 * the address is required here because the bank prints it (as at every provider we send boletos to).
 * Throws RangeError for input no Efí account could accept.
 */
export function buildBilletRequest(input: CreateChargeInput, now: Date): EfiOneStepBilletRequest {
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) throw new RangeError('amount must be positive integer cents');
  const taxId = numericTaxId(input.customer.document);
  if (!taxId) throw new RangeError('boleto needs the customer document (CPF/CNPJ)');
  const address = input.customer.address;
  if (!address) throw new RangeError('boleto needs the customer address');
  const name = input.customer.name.trim();
  const phone = input.customer.phone?.replace(/\D/g, '').replace(/^55(?=\d{10,11}$)/, '');
  const email = input.customer.email?.trim();
  const description = input.description?.trim() || 'Pagamento';
  return {
    items: [{ name: Array.from(description).slice(0, 255).join(''), value: input.amount, amount: 1 }],
    metadata: { custom_id: customIdFor(input.idempotencyKey) },
    payment: {
      banking_billet: {
        customer: {
          ...(taxId.kind === 'cpf' ? { name, cpf: taxId.value } : { juridical_person: { corporate_name: name, cnpj: taxId.value } }),
          ...(email ? { email } : {}),
          ...(phone && /^\d{10,11}$/.test(phone) ? { phone_number: phone } : {}),
          address: {
            street: address.street,
            number: address.number,
            neighborhood: address.neighborhood,
            zipcode: address.zip.replace(/\D/g, ''),
            city: address.city,
            state: address.state.toUpperCase(),
            ...(address.complement ? { complement: address.complement } : {}),
          },
        },
        expire_at: boletoDueDate(now),
      },
    },
  };
}

/** Every documented status; a new one fails to compile here. */
export function mapCobrancaStatus(status: EfiCobrancaStatus): { status: ProviderChargeStatus; failureCode?: string; failureReason?: string } {
  switch (status) {
    case 'new':
    case 'waiting':
    case 'link':
      return { status: 'pending' };
    case 'paid':
    case 'settled': // marked paid by the merchant
    case 'identified': // payment identified, waiting for confirmation: Efí already reports the money
      return { status: 'paid' };
    case 'unpaid':
    case 'expired':
      return { status: 'canceled', failureCode: 'expired', failureReason: 'Boleto vencido sem pagamento' };
    case 'canceled':
      return { status: 'canceled' };
    default:
      return assertNever(status);
  }
}

export function cobrancaToProviderCharge(charge: EfiCobranca): ProviderCharge {
  const mapping = mapCobrancaStatus(charge.status);
  const billet = charge.payment?.banking_billet ?? undefined;
  const line = billet?.barcode?.replace(/\D/g, '');
  const url = billet?.pdf?.charge ?? billet?.link ?? billet?.billet_link;
  const paidAt = charge.paid_at ? new Date(`${charge.paid_at.replace(' ', 'T')}-03:00`) : undefined;
  return {
    providerPaymentId: String(charge.charge_id),
    status: mapping.status,
    amount: charge.total,
    amountPaid: mapping.status === 'paid' ? charge.total : 0,
    nextAction: mapping.status === 'pending' && (line || url) ? { type: 'boleto', ...(line ? { digitableLine: line } : {}), ...(url ? { url } : {}) } : { type: 'none' },
    ...(billet?.expire_at ? { expiresAt: endOfDueDate(billet.expire_at) } : {}),
    ...(paidAt && Number.isFinite(paidAt.getTime()) && mapping.status === 'paid' ? { paidAt } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode, failureReason: mapping.failureReason ?? '' } : {}),
  };
}

/** Our intake URL for one charge's notifications: the secret and the charge id in the query. */
export function notificationUrlFor(webhookUrl: string, secret: string, chargeId: number): string {
  const url = new URL(webhookUrl);
  url.searchParams.delete('hmac');
  url.searchParams.set('hmac', secret);
  url.searchParams.set('charge_id', String(chargeId));
  return url.toString();
}

/** A Cobranças notification (`notification=<token>`, form-encoded): its token, when the body is one. */
export function cobrancaNotificationToken(rawBody: Buffer): string | undefined {
  const token = new URLSearchParams(rawBody.toString('utf8')).get('notification');
  return token && /^[A-Za-z0-9_-]{8,128}$/.test(token) ? token : undefined;
}

const TOKEN_REFRESH_MARGIN_MS = 60_000;

export interface EfiCobrancasOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  tls: { certificatePem: string; privateKeyPem: string; caPem?: string };
  timeoutMs: number;
  observe?: HttpExchangeObserver;
}

/** The Cobranças client of one account (boleto). */
export class EfiCobrancas {
  readonly #clientSecret: string;
  readonly #http: ProviderHttp;
  #token: { value: string; refreshAt: number } | undefined;
  private readonly clientId: string;

  constructor(options: EfiCobrancasOptions) {
    this.clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    // The client certificate goes along (harmless where not asked for; the emulator serves both APIs on one mTLS port).
    this.#http = new ProviderHttp({ provider: 'efi', baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, tls: options.tls, ...(options.observe ? { observe: options.observe } : {}) });
  }

  close(): Promise<void> {
    return this.#http.close();
  }

  private async token(force: boolean): Promise<string> {
    if (!force && this.#token && Date.now() < this.#token.refreshAt) return this.#token.value;
    const basic = Buffer.from(`${this.clientId}:${this.#clientSecret}`).toString('base64');
    const answer = await this.#http.send({
      method: 'POST',
      path: '/v1/authorize',
      purpose: 'prepare',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'cobrancas authorize');
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') throw new ProviderError('not_created', 'provider_error', 'efi cobrancas authorize: answer without access_token');
    const lifetimeMs = body.expires_in * 1000;
    this.#token = { value: body.access_token, refreshAt: Date.now() + Math.max(lifetimeMs - TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2) };
    return body.access_token;
  }

  private async api(method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'prepare' | 'read' | 'write', body?: unknown): Promise<HttpAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.token(attempt > 0);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const answer = await this.#http.send({ method, path, purpose, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      if (answer.status !== 401 || attempt > 0) return answer;
    }
  }

  /** Finds the boleto an earlier create with this key made, or creates it; then points its notifications at us. */
  async create(input: CreateChargeInput, webhookUrl: string | undefined, secret: string): Promise<ProviderCharge> {
    let request: EfiOneStepBilletRequest;
    try {
      request = buildBilletRequest(input, new Date());
    } catch (err) {
      throw new ProviderError('rejected', 'provider_rejected', `efi create boleto: ${(err as Error).message}`);
    }
    let charge = await this.findByCustomId(request.metadata.custom_id);
    if (!charge) {
      const answer = await this.api('POST', '/v1/charge/one-step', { operation: 'create', method: 'boleto' }, request);
      if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'create boleto');
      const data = (answer.body as { data?: EfiOneStepData } | undefined)?.data;
      if (!data || typeof data.charge_id !== 'number') throw new ProviderError('ambiguous', 'provider_error', 'efi create boleto: answer without charge_id');
      charge = { charge_id: data.charge_id, total: data.total, status: data.status, custom_id: request.metadata.custom_id, payment: { banking_billet: { barcode: data.barcode, link: data.link, pdf: data.pdf, expire_at: data.expire_at } } };
    }
    if (charge.total !== input.amount) throw new ProviderError('rejected', 'provider_rejected', `efi create boleto: custom_id already holds charge ${charge.charge_id} of another amount`);
    if (webhookUrl) {
      const url = notificationUrlFor(webhookUrl, secret, charge.charge_id);
      if (charge.notification_url !== url) {
        const answer = await this.api('PUT', `/v1/charge/${charge.charge_id}/metadata`, 'write', { notification_url: url, custom_id: request.metadata.custom_id });
        // The boleto exists but would not notify us: the caller resolves this at this account
        // (a repeat finds the boleto by custom_id and sets the URL again), never elsewhere.
        if (answer.status !== 200) throw new ProviderError('ambiguous', 'provider_error', `efi boleto ${charge.charge_id} created but its notification_url was not set: HTTP ${answer.status}`, answer.status);
      }
    }
    return cobrancaToProviderCharge(charge);
  }

  /** The account's boleto with this custom_id created in the last 3 days (São Paulo), if any. */
  private async findByCustomId(customId: string): Promise<EfiCobranca | undefined> {
    const day = (offsetDays: number) => new Date(Date.now() - 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({ charge_type: 'billet', begin_date: day(-3), end_date: day(1), custom_id: customId });
    const answer = await this.api('GET', `/v1/charges?${query.toString()}`, 'prepare');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list boletos');
    const data = (answer.body as { data?: EfiCobranca[] } | undefined)?.data;
    return Array.isArray(data) ? data.find((c) => c.custom_id === customId) : undefined;
  }

  async get(chargeId: string): Promise<ProviderCharge> {
    const answer = await this.api('GET', `/v1/charge/${chargeId}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get boleto');
    return cobrancaToProviderCharge((answer.body as { data: EfiCobranca }).data);
  }

  /** One page (from 1) of the boletos of the period's São Paulo days, as listed (efi.listing.ts pages through them). */
  async listPage(period: ChargePeriod, page: number, limit: number): Promise<EfiListedCobranca[]> {
    const answer = await this.api('GET', cobrancaListPath(period, page, limit), 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list boletos');
    return cobrancaListData(answer.body);
  }

  /** Cancels a boleto still open; one no longer open is answered as it is. */
  async cancel(chargeId: string): Promise<ProviderCharge> {
    const answer = await this.api('PUT', `/v1/charge/${chargeId}/cancel`, 'write');
    if (answer.status === 200) return this.get(chargeId);
    const error = providerErrorFor(answer.status, answer.body, 'cancel boleto');
    if (error.kind === 'rejected') {
      const current = await this.get(chargeId);
      if (current.status !== 'pending') return current;
    }
    throw error;
  }
}

// --- listing for reconciliation (issue 18) -------------------------------------------------------

/** A boleto as `GET /v1/charges` lists it (the fields reconciliation reads). */
export interface EfiListedCobranca extends EfiCobranca {
  /** `YYYY-MM-DD HH:mm:ss` in São Paulo. */
  created_at?: string | null;
}

/** `YYYY-MM-DD HH:mm:ss` (São Paulo, no offset) → the instant. */
function saoPauloInstant(text: string | null | undefined): Date {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(text ?? '');
  return match ? new Date(`${match[1]}T${match[2]}-03:00`) : new Date(NaN);
}

/**
 * A listed boleto: Efí reports no fee in it, and boletos have no refunds at Efí; `reference` is
 * the `custom_id` the adapter set at creation (a digest of our idempotency key, customIdFor).
 */
export function cobrancaToListedCharge(charge: EfiListedCobranca): ListedCharge {
  return {
    providerPaymentId: String(charge.charge_id),
    status: mapCobrancaStatus(charge.status).status,
    amount: charge.total,
    amountRefunded: 0,
    fee: null,
    method: 'boleto',
    createdAt: saoPauloInstant(charge.created_at),
    reference: charge.custom_id || null,
  };
}

/**
 * `GET /v1/charges` for the São Paulo days the period touches, one page: `limit` boletos, `page`
 * from 1 (the names of Efí's SDK examples; efi.listing.ts on what is unconfirmed). Only boletos
 * created in [from, to) are kept (cobrancaListCharges).
 */
export function cobrancaListPath(period: ChargePeriod, page: number, limit: number): string {
  const day = (at: Date) => new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
  const query = new URLSearchParams({
    charge_type: 'billet',
    begin_date: day(period.from),
    end_date: day(new Date(period.to.getTime() - 1)),
    limit: String(limit),
    page: String(page),
  });
  return `/v1/charges?${query.toString()}`;
}

/** The boletos of one answer, as listed (none when the answer has no `data` list). */
export function cobrancaListData(body: unknown): EfiListedCobranca[] {
  const data = (body as { data?: EfiListedCobranca[] } | undefined)?.data;
  return Array.isArray(data) ? data : [];
}

/** The listed boletos created in [from, to). */
export function cobrancaListCharges(data: readonly EfiListedCobranca[], period: ChargePeriod): ListedCharge[] {
  return data.map(cobrancaToListedCharge).filter((c) => c.createdAt >= period.from && c.createdAt < period.to);
}

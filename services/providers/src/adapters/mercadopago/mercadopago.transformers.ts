/**
 * Mercado Pago Payments API wire types and pure conversions: cents ↔ decimal reais, our charge
 * input → `POST /v1/payments` body text (Pix, boleto `bolbradesco`, card with a `card_tokens`
 * token), a vault card → `POST /v1/card_tokens` body, a payment → ProviderCharge (exhaustive status
 * map, card declines onto ours). No I/O here; the error table is mercadopago.errors.ts, webhook checks mercadopago.webhook.ts.
 *
 * Over 300 lines: a third is Mercado Pago's wire types; the rest is one request builder per method
 * (Pix, boleto, card, card token) and the exhaustive status and decline maps that read them.
 */
import { assertNever, assertPositiveCents, centsToReaisString, numericTaxId, reaisStringToCents } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { boletoDueDate, endOfDueDate } from '../../domain/boleto-due-date';
import { declineReason, type CardDeclineCode } from '../../domain/card-declines';
import type { CreateChargeInput, ProviderCharge, ProviderChargeStatus, VaultCardInput } from '../provider-adapter';
import { refundsOfPayment, type MercadoPagoRefund } from './mercadopago.refunds';

// ---------------------------------------------------------------------------------------------
// Wire types (api.mercadopago.com/v1/payments, the fields this adapter reads or writes)
// ---------------------------------------------------------------------------------------------

/** Every documented `status` of a payment ("Get payment" reference). */
export type MercadoPagoStatus =
  | 'pending'
  | 'approved'
  | 'authorized'
  | 'in_process'
  | 'in_mediation'
  | 'rejected'
  | 'cancelled'
  | 'refunded'
  | 'charged_back';

/** Amounts arrive as JSON numbers of reais; some documented samples show them as strings. */
export type MercadoPagoAmount = number | string;

export interface MercadoPagoPayer {
  email: string;
  first_name?: string;
  last_name?: string;
  identification?: { type: 'CPF' | 'CNPJ'; number: string };
  /** Boleto: the address the bank prints (all fields required by Mercado Pago for bolbradesco). */
  address?: MercadoPagoPayerAddress;
}

export interface MercadoPagoPayerAddress {
  zip_code: string;
  street_name: string;
  street_number: string;
  neighborhood: string;
  city: string;
  federal_unit: string;
}

/** The Pix request body, except `transaction_amount` (written as a decimal literal, see serialize). */
export interface MercadoPagoPixRequest {
  payment_method_id: 'pix';
  payer: MercadoPagoPayer;
  description?: string;
  date_of_expiration: string;
  notification_url: string;
  external_reference: string;
  metadata: Record<string, string>;
  /** Mercado Pago's fraud prevention reads the buyer's IP from here. */
  additional_info?: { ip_address: string };
}

/** The boleto request body, except `transaction_amount`. */
export interface MercadoPagoBoletoRequest extends Omit<MercadoPagoPixRequest, 'payment_method_id'> {
  payment_method_id: 'bolbradesco';
}

/** The card request body, except `transaction_amount`: a `card_tokens` token of the same account. */
export interface MercadoPagoCardRequest extends Omit<MercadoPagoPixRequest, 'payment_method_id' | 'date_of_expiration'> {
  payment_method_id: string;
  token: string;
  installments: number;
}

/** `POST /v1/card_tokens`: the card as Mercado Pago tokenizes it (the token is single use). */
export interface MercadoPagoCardTokenRequest {
  card_number: string;
  expiration_month: number;
  expiration_year: number;
  security_code?: string;
  cardholder: { name: string; identification?: { type: 'CPF' | 'CNPJ'; number: string } };
}

export interface MercadoPagoCardToken {
  id: string;
  last_four_digits?: string;
  status?: string;
}

export interface MercadoPagoFeeDetail {
  type: string;
  amount: MercadoPagoAmount;
  fee_payer: 'collector' | 'payer' | string;
}

export interface MercadoPagoPayment {
  id: number;
  status: MercadoPagoStatus;
  status_detail: string;
  date_created?: string;
  date_approved?: string | null;
  date_of_expiration?: string | null;
  payment_method_id?: string;
  transaction_amount: MercadoPagoAmount;
  transaction_details?: {
    total_paid_amount?: MercadoPagoAmount | null;
    net_received_amount?: MercadoPagoAmount | null;
    /** Boleto: the PDF. */
    external_resource_url?: string | null;
    /** Boleto: the linha digitável. */
    digitable_line?: string | null;
  };
  /** Boleto: the bar code. */
  barcode?: { content?: string | null } | null;
  fee_details?: MercadoPagoFeeDetail[];
  external_reference?: string | null;
  refunds?: MercadoPagoRefund[] | null;
  point_of_interaction?: {
    type?: string;
    transaction_data?: { qr_code?: string | null; qr_code_base64?: string | null; ticket_url?: string | null; e2e_id?: string | null };
  };
}

export interface MercadoPagoErrorBody {
  message?: string;
  error?: string;
  status?: number;
  cause?: { code?: number | string; description?: string }[] | null;
}

// ---------------------------------------------------------------------------------------------
// Money: integer cents ↔ reais, by string arithmetic only
// ---------------------------------------------------------------------------------------------

/** 199007 → "1990.07": the JSON number literal sent as `transaction_amount`. */
export function centsToReaisLiteral(cents: number): string {
  assertPositiveCents(cents, 'amount');
  return centsToReaisString(cents);
}

/**
 * A reais amount → cents, never through float arithmetic. Numbers are read through `String(n)`,
 * the shortest decimal that parses back to `n`: for any literal of ≤ 15 significant digits (every
 * amount below R$ 10 trillion with cents) that is the literal Mercado Pago wrote, so "1990.07"
 * stays 1990.07 and is split into 1990 and 07 as text. Strings ("24.50") are read the same way.
 */
export function reaisToCents(amount: MercadoPagoAmount): number {
  return reaisStringToCents(typeof amount === 'number' ? String(amount) : amount.trim());
}

// ---------------------------------------------------------------------------------------------
// Charge request
// ---------------------------------------------------------------------------------------------

/** What Mercado Pago accepts in a header value, kept short of any proxy's header limits. */
const SAFE_IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,64}$/;

/**
 * The X-Idempotency-Key for an idempotency key. Mercado Pago asks for "a UUID v4 or random
 * strings" and documents no length or alphabet, so our key is sent as it is when it is short
 * printable ASCII; anything else (long, spaces, non-ASCII) becomes a UUID-shaped SHA-256 digest of
 * it. Either way the same key always sends the same header, so a repeated create answers the
 * payment the first one made instead of making a second.
 */
export function idempotencyHeaderFor(idempotencyKey: string): string {
  if (SAFE_IDEMPOTENCY_KEY.test(idempotencyKey)) return idempotencyKey;
  const hex = createHash('sha256').update(`orquestra:mercadopago:payment:${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `payer.identification` only for a valid CPF or CNPJ: a bad document fails the whole payment. */
export function identificationFor(document: string | undefined): MercadoPagoPayer['identification'] {
  const taxId = numericTaxId(document);
  if (!taxId) return undefined;
  return { type: taxId.kind === 'cpf' ? 'CPF' : 'CNPJ', number: taxId.value };
}

/** Pix `date_of_expiration` must be 30 minutes to 30 days ahead (Pix integration guide). */
export const PIX_EXPIRY_MIN_SECONDS = 31 * 60; // one minute of margin for clocks and transit
export const PIX_EXPIRY_MAX_SECONDS = 30 * 24 * 60 * 60 - 60;

/** `2025-03-10T11:02:11.482-03:00`: ISO 8601 with an explicit offset, as the API writes dates. */
export function formatMercadoPagoDate(at: Date): string {
  return `${new Date(at.getTime() - 3 * 60 * 60 * 1000).toISOString().slice(0, -1)}-03:00`;
}

/**
 * Our webhook URL as `notification_url`: Mercado Pago appends `data.id` and `type` to it and keeps
 * our `hmac`. `source_news=webhooks` asks for Webhooks-format notifications only; without it the
 * URL also receives legacy IPN posts, which carry no verifiable signature.
 */
export function notificationUrlFor(webhookUrl: string): string {
  const url = new URL(webhookUrl);
  url.searchParams.set('source_news', 'webhooks');
  return url.toString();
}

const DESCRIPTION_MAX = 600;

/**
 * The Pix payment body. Expiry outside Mercado Pago's window is clamped into it (a charge that
 * lives a little longer beats no charge; `expiresAt` reports the real one). Throws RangeError for
 * input no Mercado Pago account could accept (no payer e-mail, which Pix requires here).
 */
export function buildPixRequest(input: CreateChargeInput, notificationUrl: string, now: Date): MercadoPagoPixRequest {
  const email = input.customer.email?.trim();
  if (!email) throw new RangeError('Mercado Pago requires payer.email for Pix');
  const [first, ...rest] = input.customer.name.trim().split(/\s+/);
  const identification = identificationFor(input.customer.document);
  const seconds = Math.min(Math.max(input.expiresInSeconds, PIX_EXPIRY_MIN_SECONDS), PIX_EXPIRY_MAX_SECONDS);
  const description = input.description?.trim();
  return {
    payment_method_id: 'pix',
    payer: {
      email,
      ...(first ? { first_name: first } : {}),
      ...(rest.length > 0 ? { last_name: rest.join(' ') } : {}),
      ...(identification ? { identification } : {}),
    },
    ...(description ? { description: Array.from(description).slice(0, DESCRIPTION_MAX).join('') } : {}),
    date_of_expiration: formatMercadoPagoDate(new Date(now.getTime() + seconds * 1000)),
    notification_url: notificationUrl,
    external_reference: input.paymentId,
    metadata: { ...input.metadata },
    // The buyer's IP (the API caller's by default, spec "Customer"), for Mercado Pago's risk analysis.
    ...(input.customer.ip ? { additional_info: { ip_address: input.customer.ip } } : {}),
  };
}

/** `first_name`, `last_name`, e-mail and identification, as every method sends the payer. */
function payerOf(input: CreateChargeInput, method: string): MercadoPagoPayer {
  const email = input.customer.email?.trim();
  if (!email) throw new RangeError(`Mercado Pago requires payer.email for ${method}`);
  const [first, ...rest] = input.customer.name.trim().split(/\s+/);
  const identification = identificationFor(input.customer.document);
  return {
    email,
    ...(first ? { first_name: first } : {}),
    ...(rest.length > 0 ? { last_name: rest.join(' ') } : {}),
    ...(identification ? { identification } : {}),
  };
}

/** What every method's body shares beside the payer. */
function commonFields(input: CreateChargeInput, notificationUrl: string) {
  const description = input.description?.trim();
  return {
    ...(description ? { description: Array.from(description).slice(0, DESCRIPTION_MAX).join('') } : {}),
    notification_url: notificationUrl,
    external_reference: input.paymentId,
    metadata: { ...input.metadata },
    ...(input.customer.ip ? { additional_info: { ip_address: input.customer.ip } } : {}),
  };
}

/**
 * The boleto (`bolbradesco`) body: Mercado Pago requires the payer's CPF/CNPJ and full address.
 * The due date is the platform's (domain/boleto-due-date.ts): `date_of_expiration` is the end of
 * that day in São Paulo. Throws RangeError when the document, address or e-mail is missing.
 */
export function buildBoletoRequest(input: CreateChargeInput, notificationUrl: string, now: Date): MercadoPagoBoletoRequest {
  const payer = payerOf(input, 'boleto');
  if (!payer.identification) throw new RangeError('Mercado Pago requires payer.identification (CPF/CNPJ) for boleto');
  const address = input.customer.address;
  if (!address) throw new RangeError('Mercado Pago requires the payer address for boleto');
  return {
    payment_method_id: 'bolbradesco',
    payer: {
      ...payer,
      address: {
        zip_code: address.zip.replace(/\D/g, ''),
        street_name: address.street,
        street_number: address.number,
        neighborhood: address.neighborhood,
        city: address.city,
        federal_unit: address.state.toUpperCase(),
      },
    },
    date_of_expiration: formatMercadoPagoDate(endOfDueDate(boletoDueDate(now))),
    ...commonFields(input, notificationUrl),
  };
}

/** Our brands (VaultCardInput.brand) → Mercado Pago's `payment_method_id` for credit cards in Brazil. */
export const MERCADOPAGO_CARD_METHODS: Readonly<Record<string, string>> = {
  visa: 'visa',
  mastercard: 'master',
  elo: 'elo',
  hipercard: 'hipercard',
  'american-express': 'amex',
  'diners-club': 'diners',
};

/** The `POST /v1/card_tokens` body for a vault card (the holder's document when known). */
export function buildCardTokenRequest(card: VaultCardInput, document: string | undefined): MercadoPagoCardTokenRequest {
  const identification = identificationFor(document);
  return {
    card_number: card.number,
    expiration_month: card.expMonth,
    expiration_year: card.expYear,
    ...(card.cvc ? { security_code: card.cvc } : {}),
    cardholder: { name: card.holderName, ...(identification ? { identification } : {}) },
  };
}

/** The card payment body with the token `POST /v1/card_tokens` answered. Throws RangeError for a brand Mercado Pago does not take. */
export function buildCardRequest(input: CreateChargeInput, token: string, brand: string, notificationUrl: string): MercadoPagoCardRequest {
  const paymentMethodId = MERCADOPAGO_CARD_METHODS[brand];
  if (!paymentMethodId) throw new RangeError(`Mercado Pago does not take ${brand} cards`);
  const installments = input.card?.installments ?? 1;
  return {
    payment_method_id: paymentMethodId,
    token,
    installments: installments >= 1 && installments <= 12 ? installments : 1,
    payer: payerOf(input, 'card'),
    ...commonFields(input, notificationUrl),
  };
}

/** The body text: `transaction_amount` is written from integer math, never from a float. */
export function serializePaymentRequest(request: MercadoPagoPixRequest | MercadoPagoBoletoRequest | MercadoPagoCardRequest, amountCents: number): string {
  const literal = centsToReaisLiteral(amountCents);
  const rest = JSON.stringify(request);
  return `{"transaction_amount":${literal},${rest.slice(1)}`;
}

/** The body text: `transaction_amount` is written from integer math, never from a float. */
export function serializePixRequest(request: MercadoPagoPixRequest, amountCents: number): string {
  const literal = centsToReaisLiteral(amountCents);
  const rest = JSON.stringify(request);
  return `{"transaction_amount":${literal},${rest.slice(1)}`;
}

// ---------------------------------------------------------------------------------------------
// Payment → ProviderCharge
// ---------------------------------------------------------------------------------------------

interface StatusMapping {
  status: ProviderChargeStatus;
  failureCode?: string;
  failureReason?: string;
}

/**
 * A card payment's `status_detail` when `rejected` (the "rejection reasons" table) → our decline.
 * Anything else starting `cc_rejected_` is a refusal without a finer reason: `card_declined`.
 */
const MERCADOPAGO_DECLINES: Readonly<Record<string, CardDeclineCode>> = {
  cc_rejected_insufficient_amount: 'insufficient_funds',
  cc_rejected_bad_filled_date: 'expired_card',
  cc_rejected_bad_filled_security_code: 'incorrect_cvc',
  cc_rejected_bad_filled_card_number: 'card_declined',
  cc_rejected_bad_filled_other: 'card_declined',
  cc_rejected_high_risk: 'card_declined',
  cc_rejected_call_for_authorize: 'card_declined',
  cc_rejected_card_disabled: 'card_declined',
  cc_rejected_blacklist: 'stolen_card',
  cc_rejected_other_reason: 'card_declined',
};

export function mercadoPagoCardDecline(statusDetail: string): CardDeclineCode | undefined {
  return MERCADOPAGO_DECLINES[statusDetail] ?? (statusDetail.startsWith('cc_rejected') ? 'card_declined' : undefined);
}

/** Every documented payment status; a new one fails to compile here. */
export function mapPaymentStatus(status: MercadoPagoStatus, statusDetail: string): StatusMapping {
  switch (status) {
    case 'pending': // waiting for the Pix (pending_waiting_transfer)
    case 'in_process': // under review
    case 'authorized': // card authorized, not captured: no money yet
      return { status: 'pending' };
    case 'approved':
      return { status: 'paid' };
    // Disputes, refunds and chargebacks happen after the money arrived: the charge was paid; those
    // flows track what happened next.
    case 'in_mediation':
    case 'refunded':
    case 'charged_back':
      return { status: 'paid' };
    case 'rejected': {
      const decline = mercadoPagoCardDecline(statusDetail);
      return decline ? { status: 'failed', failureCode: decline, failureReason: declineReason(decline) } : { status: 'failed', failureCode: statusDetail || 'rejected' };
    }
    case 'cancelled':
      // `expired` (date_of_expiration passed) or by_collector / by_payer / by_admin.
      return { status: 'canceled', ...(statusDetail === 'expired' ? { failureCode: 'expired' } : {}) };
    default:
      return assertNever(status);
  }
}

function dateOf(text: string | null | undefined): Date | undefined {
  const ms = text ? Date.parse(text) : NaN;
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/** The fee the seller pays (fee_details with fee_payer "collector"), in cents; undefined when none is reported. */
export function collectorFeeCents(fees: MercadoPagoFeeDetail[] | undefined): number | undefined {
  const own = (fees ?? []).filter((fee) => fee.fee_payer === 'collector');
  return own.length === 0 ? undefined : own.reduce((sum, fee) => sum + reaisToCents(fee.amount), 0);
}

export function toProviderCharge(payment: MercadoPagoPayment): ProviderCharge {
  const mapping = mapPaymentStatus(payment.status, payment.status_detail);
  const amount = reaisToCents(payment.transaction_amount);
  const paidTotal = payment.transaction_details?.total_paid_amount;
  const data = payment.point_of_interaction?.transaction_data;
  const expiresAt = dateOf(payment.date_of_expiration);
  const paidAt = dateOf(payment.date_approved);
  const fee = collectorFeeCents(payment.fee_details);
  const paid = mapping.status === 'paid';
  const refunds = refundsOfPayment(payment);
  const boletoLine = payment.transaction_details?.digitable_line ?? undefined;
  const boletoUrl = payment.transaction_details?.external_resource_url ?? undefined;
  const pending = mapping.status === 'pending';
  return {
    providerPaymentId: String(payment.id),
    status: mapping.status,
    amount,
    amountPaid: paid ? (paidTotal !== undefined && paidTotal !== null ? reaisToCents(paidTotal) : amount) : 0,
    nextAction:
      pending && data?.qr_code
        ? { type: 'pix_qr', qrCode: data.qr_code, ...(data.qr_code_base64 ? { qrCodeBase64: data.qr_code_base64 } : {}), ...(data.ticket_url ? { url: data.ticket_url } : {}) }
        : pending && payment.payment_method_id === 'bolbradesco' && (boletoLine || boletoUrl)
          ? { type: 'boleto', ...(boletoLine ? { digitableLine: boletoLine } : {}), ...(boletoUrl ? { url: boletoUrl } : {}) }
          : { type: 'none' },
    ...(expiresAt ? { expiresAt } : {}),
    ...(paid && paidAt ? { paidAt } : {}),
    ...(paid && data?.e2e_id ? { endToEndId: data.e2e_id } : {}),
    ...(fee !== undefined ? { providerFee: fee } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode, failureReason: mapping.failureReason ?? `Mercado Pago: ${payment.status}/${payment.status_detail}` } : {}),
    ...(refunds ? { refunds } : {}),
  };
}

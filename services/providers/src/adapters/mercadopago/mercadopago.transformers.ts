/**
 * Mercado Pago Payments API wire types and pure conversions: cents ↔ decimal reais, our charge
 * input → `POST /v1/payments` (Pix) body text, a payment → ProviderCharge (exhaustive status map),
 * No I/O here; the error table is mercadopago.errors.ts, webhook checks mercadopago.webhook.ts.
 */
import { assertNever, assertPositiveCents, centsToReaisString, numericTaxId, reaisStringToCents } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import type { CreateChargeInput, ProviderCharge, ProviderChargeStatus } from '../provider-adapter';
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
  transaction_amount: MercadoPagoAmount;
  transaction_details?: { total_paid_amount?: MercadoPagoAmount | null; net_received_amount?: MercadoPagoAmount | null };
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
    case 'rejected':
      return { status: 'failed', failureCode: statusDetail || 'rejected' };
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
  return {
    providerPaymentId: String(payment.id),
    status: mapping.status,
    amount,
    amountPaid: paid ? (paidTotal !== undefined && paidTotal !== null ? reaisToCents(paidTotal) : amount) : 0,
    nextAction:
      mapping.status === 'pending' && data?.qr_code
        ? { type: 'pix_qr', qrCode: data.qr_code, ...(data.qr_code_base64 ? { qrCodeBase64: data.qr_code_base64 } : {}), ...(data.ticket_url ? { url: data.ticket_url } : {}) }
        : { type: 'none' },
    ...(expiresAt ? { expiresAt } : {}),
    ...(paid && paidAt ? { paidAt } : {}),
    ...(paid && data?.e2e_id ? { endToEndId: data.e2e_id } : {}),
    ...(fee !== undefined ? { providerFee: fee } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode, failureReason: `Mercado Pago: ${payment.status}/${payment.status_detail}` } : {}),
    ...(refunds ? { refunds } : {}),
  };
}

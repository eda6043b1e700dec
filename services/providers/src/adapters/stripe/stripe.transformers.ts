/**
 * Stripe wire types and pure conversions: the form body of a Pix PaymentIntent, the exhaustive
 * PaymentIntent status map. No I/O here (stripe.adapter.ts does HTTP; stripe.errors.ts reads
 * error answers; stripe.webhook.ts verifies and reads webhook events).
 *
 * Money: Stripe takes and answers BRL in integer centavos (`amount=1990` is R$ 19,90), the same
 * unit as ours, so amounts cross unchanged. They are checked to be safe integers on the way out and
 * on the way in (JSON integers up to 2^53 parse exactly), never multiplied or divided.
 *
 * Over 300 lines: a third is Stripe's wire types as its API reference gives them; the rest is one
 * request builder per method and the status map, which read those types.
 */
import { assertNever } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { type CreateChargeInput, type ProviderCharge, type ProviderChargeStatus } from '../provider-adapter';
import type { FormValue } from './stripe.form-encoding';
import { declineReason, stripeDecline } from '../../domain/card-declines';

// ---------------------------------------------------------------------------------------------
// Wire types (docs.stripe.com/api/payment_intents/object, API version STRIPE_API_VERSION)
// ---------------------------------------------------------------------------------------------

/** Pinned so response and event shapes cannot change under us (`latest_charge`, no `charges` list). */
export const STRIPE_API_VERSION = '2025-03-31.basil';

export type StripeIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface StripePixDisplayQrCode {
  data: string;
  expires_at: number;
  hosted_instructions_url: string;
  image_url_png: string;
  image_url_svg: string;
}

/** `next_action.boleto_display_details` (docs.stripe.com/payments/boleto/accept-a-payment). */
export interface StripeBoletoDisplayDetails {
  /** The linha digitável (47 digits). */
  number: string;
  hosted_voucher_url: string;
  pdf: string;
  /** End of the due day, São Paulo time (epoch seconds). */
  expires_at: number;
}

export interface StripeLastPaymentError {
  type: string;
  code?: string;
  decline_code?: string;
  message?: string;
}

export interface StripeBalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  fee: number;
  net: number;
}

export interface StripeCharge {
  id: string;
  object: 'charge';
  amount: number;
  created: number;
  status: 'succeeded' | 'pending' | 'failed';
  balance_transaction: string | StripeBalanceTransaction | null;
  payment_method_details?: { type: string; pix?: { bank_transaction_id?: string | null } } | null;
}

export interface StripePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: StripeIntentStatus;
  created: number;
  canceled_at: number | null;
  cancellation_reason: string | null;
  last_payment_error: StripeLastPaymentError | null;
  latest_charge: string | StripeCharge | null;
  metadata: Record<string, string>;
  next_action: { type: string; pix_display_qr_code?: StripePixDisplayQrCode; boleto_display_details?: StripeBoletoDisplayDetails } | null;
  payment_method_options?: { pix?: { expires_after_seconds?: number; expires_at?: number | null } } | null;
}

export interface StripeErrorBody {
  error: {
    type: string;
    code?: string;
    decline_code?: string;
    message?: string;
    param?: string;
    payment_intent?: StripePaymentIntent;
  };
}

export interface StripeWebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  /** Present only in the answer to the create call. */
  secret?: string;
}

export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

// ---------------------------------------------------------------------------------------------
// Charge request
// ---------------------------------------------------------------------------------------------

/** Stripe's limits (docs.stripe.com/api/payment_intents/create, /metadata). */
export const PIX_EXPIRY_SECONDS = { min: 10, max: 1_209_600 };
const METADATA_MAX = { keys: 50, key: 40, value: 500 };
const DESCRIPTION_MAX = 1_000;
/** Stripe accepts idempotency keys of at most 255 characters. */
const IDEMPOTENCY_KEY_MAX = 255;

/** Cuts a string to `max` characters without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** The key itself when Stripe can take it, else a stable digest of it (same key → same header). */
export function stripeIdempotencyKey(key: string): string {
  return key.length <= IDEMPOTENCY_KEY_MAX ? key : `orquestra-sha256-${createHash('sha256').update(key).digest('hex')}`;
}

export function checkAmount(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`amount must be a positive integer of cents, got ${cents}`);
  return cents;
}

/**
 * Our metadata plus the payment id, within Stripe's limits: keys sorted (so a repeat sends the same
 * body, which Stripe's idempotency layer compares), at most 50, keys ≤ 40 and values ≤ 500 chars.
 */
export function metadataFor(input: CreateChargeInput): Record<string, string> {
  // Brackets would change the parameter's structure in the form body, so keys drop them.
  const entries = Object.entries({ orquestra_payment_id: input.paymentId, ...input.metadata })
    .map(([key, value]): [string, string] => [key.replace(/[[\]]/g, ''), value])
    .filter(([key, value]) => key.length > 0 && value !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, METADATA_MAX.keys);
  return Object.fromEntries(entries.map(([key, value]) => [truncate(key, METADATA_MAX.key), truncate(value, METADATA_MAX.value)]));
}

/**
 * `POST /v1/payment_intents` for a Pix confirmed at once: the answer is `requires_action` with
 * `next_action.pix_display_qr_code`. Pix needs no customer data at Stripe; the name and e-mail
 * go to the PaymentMethod's billing details when we have them (shown in Stripe's dashboard).
 */
export function buildPixIntentParams(input: CreateChargeInput): Record<string, FormValue> {
  const seconds = Math.min(PIX_EXPIRY_SECONDS.max, Math.max(PIX_EXPIRY_SECONDS.min, Math.trunc(input.expiresInSeconds)));
  const name = input.customer.name.trim();
  const email = input.customer.email?.trim();
  const description = input.description?.trim();
  return {
    amount: checkAmount(input.amount),
    currency: 'brl',
    payment_method_types: ['pix'],
    payment_method_data: {
      type: 'pix',
      ...(name || email ? { billing_details: { ...(name ? { name } : {}), ...(email ? { email } : {}) } } : {}),
    },
    payment_method_options: { pix: { expires_after_seconds: seconds } },
    confirm: true,
    ...(description ? { description: truncate(description, DESCRIPTION_MAX) } : {}),
    metadata: metadataFor(input),
    expand: ['latest_charge.balance_transaction'],
  };
}

/**
 * A card PaymentIntent confirmed at once with a PaymentMethod from Stripe.js (`pm_…`; in test mode
 * Stripe's `pm_card_visa`, `pm_card_chargeDeclined`, …): the answer is `succeeded`, or a 402
 * `card_error` (see declinedCharge). Installments (Brazil) are a fixed-count monthly plan.
 */
export function buildCardIntentParams(input: CreateChargeInput, paymentMethodId: string): Record<string, FormValue> {
  const description = input.description?.trim();
  const installments = input.card?.installments ?? 1;
  return {
    amount: checkAmount(input.amount),
    currency: 'brl',
    payment_method_types: ['card'],
    payment_method: paymentMethodId,
    ...(installments > 1 ? { payment_method_options: { card: { installments: { plan: { count: installments, interval: 'month', type: 'fixed_count' } } } } } : {}),
    confirm: true,
    ...(description ? { description: truncate(description, DESCRIPTION_MAX) } : {}),
    metadata: metadataFor(input),
    expand: ['latest_charge.balance_transaction'],
  };
}

/**
 * A boleto PaymentIntent confirmed at once: the answer is `requires_action` with
 * `next_action.boleto_display_details`. Stripe needs the payer's CPF/CNPJ (`boleto[tax_id]`),
 * name, e-mail and address (country BR) in the billing details; the voucher falls due after
 * `expires_after_days` (our BOLETO_DUE_DAYS) and expires at the end of that day, São Paulo time.
 */
export function buildBoletoIntentParams(input: CreateChargeInput, dueDays: number): Record<string, FormValue> {
  const { name, email, document, address } = input.customer;
  if (!document) throw new RangeError('boleto needs the customer document (CPF/CNPJ)');
  if (!address) throw new RangeError('boleto needs the customer address');
  if (!email) throw new RangeError('boleto at Stripe needs the customer e-mail');
  const description = input.description?.trim();
  const line2 = [address.complement, address.neighborhood].filter((part) => part && part.trim()).join(' - ');
  return {
    amount: checkAmount(input.amount),
    currency: 'brl',
    payment_method_types: ['boleto'],
    payment_method_data: {
      type: 'boleto',
      boleto: { tax_id: document },
      billing_details: {
        name: name.trim(),
        email: email.trim(),
        address: {
          line1: `${address.street}, ${address.number}`,
          ...(line2 ? { line2 } : {}),
          city: address.city,
          state: address.state,
          postal_code: address.zip,
          country: 'BR',
        },
      },
    },
    payment_method_options: { boleto: { expires_after_days: dueDays } },
    confirm: true,
    ...(description ? { description: truncate(description, DESCRIPTION_MAX) } : {}),
    metadata: metadataFor(input),
    expand: ['latest_charge.balance_transaction'],
  };
}

// ---------------------------------------------------------------------------------------------
// Charge response
// ---------------------------------------------------------------------------------------------

interface StatusMapping {
  status: ProviderChargeStatus;
  failureCode?: string;
  failureReason?: string;
}

/** Stripe's code when a Pix (or boleto) attempt passes its expiry unpaid. */
export const ATTEMPT_EXPIRED = 'payment_intent_payment_attempt_expired';

/** Every PaymentIntent status; a new one fails to compile here. */
export function mapIntentStatus(pi: Pick<StripePaymentIntent, 'status' | 'last_payment_error'>): StatusMapping {
  switch (pi.status) {
    case 'succeeded':
      return { status: 'paid' };
    case 'canceled':
      return { status: 'canceled' };
    case 'requires_payment_method': {
      // Back here after an attempt: an expired Pix code (nobody declined it), or a card decline.
      const error = pi.last_payment_error;
      if (!error) return { status: 'pending' };
      if (error.code === ATTEMPT_EXPIRED) return { status: 'canceled', failureCode: 'expired', failureReason: error.message ?? 'Pix expirado' };
      const failureCode = stripeDecline(error.decline_code, error.code);
      return { status: 'failed', failureCode, failureReason: declineReason(failureCode) };
    }
    case 'requires_confirmation':
    case 'requires_action':
    case 'processing':
    case 'requires_capture': // only with capture_method=manual, which we never send
      return { status: 'pending' };
    default:
      return assertNever(pi.status);
  }
}

function expandedCharge(pi: StripePaymentIntent): StripeCharge | undefined {
  return typeof pi.latest_charge === 'object' && pi.latest_charge !== null ? pi.latest_charge : undefined;
}

export function toProviderCharge(pi: StripePaymentIntent): ProviderCharge {
  const mapping = mapIntentStatus(pi);
  const qr = pi.next_action?.type === 'pix_display_qr_code' ? pi.next_action.pix_display_qr_code : undefined;
  const boleto = pi.next_action?.type === 'boleto_display_details' ? pi.next_action.boleto_display_details : undefined;
  const expiresAtSeconds = qr?.expires_at ?? boleto?.expires_at ?? pi.payment_method_options?.pix?.expires_at ?? undefined;
  const charge = expandedCharge(pi);
  const fee = typeof charge?.balance_transaction === 'object' && charge.balance_transaction !== null ? charge.balance_transaction.fee : undefined;
  const endToEndId = charge?.payment_method_details?.pix?.bank_transaction_id ?? undefined;
  const paid = mapping.status === 'paid';
  return {
    providerPaymentId: pi.id,
    status: mapping.status,
    amount: checkAmount(pi.amount),
    amountPaid: paid ? pi.amount_received : 0,
    // Stripe gives image URLs, not a base64 PNG, so qrCodeBase64 stays empty.
    nextAction:
      mapping.status === 'pending' && qr?.data
        ? { type: 'pix_qr', qrCode: qr.data }
        : mapping.status === 'pending' && boleto?.number
          ? { type: 'boleto', digitableLine: boleto.number.replace(/\D/g, ''), url: boleto.hosted_voucher_url || boleto.pdf }
          : { type: 'none' },
    ...(typeof expiresAtSeconds === 'number' ? { expiresAt: new Date(expiresAtSeconds * 1000) } : {}),
    ...(paid && charge ? { paidAt: new Date(charge.created * 1000) } : {}),
    ...(paid && endToEndId ? { endToEndId } : {}),
    ...(Number.isSafeInteger(fee) ? { providerFee: fee } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode } : {}),
    ...(mapping.failureReason ? { failureReason: mapping.failureReason } : {}),
  };
}

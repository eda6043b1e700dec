/**
 * Stripe refunds: wire types, the exhaustive refund status map, the request parameters and the
 * `refundCharge` flow (given the adapter's authenticated `api` call). Sources: API reference
 * "Create a refund" / "List all refunds" / the Refund object (docs.stripe.com/api/refunds), the
 * refunds guide (docs.stripe.com/refunds) and the boleto guide (docs.stripe.com/payments/boleto:
 * a boleto refund needs the payer's bank details, which Stripe asks for by e-mail; the refund
 * waits in `requires_action` until the payer answers).
 *
 * Our refund id rides in the refund's `metadata[orquestra_refund_id]` (so every later read knows
 * which refunds are ours) and is the request's `Idempotency-Key`. Stripe keeps idempotency keys
 * for 24 h only, while our follow-ups re-send for about three days, so the intent's refunds are
 * listed first and a refund already carrying our id is answered instead of making another.
 * A refund of a destination charge reverses the connected account's part in proportion
 * (`reverse_transfer`, stripe.splits.ts).
 */
import { assertNever } from '@orquestra/platform';
import { ProviderError, type ProviderRefund, type ProviderRefundStatus, type RefundChargeInput } from '../provider-adapter';
import type { FormValue } from './stripe.form-encoding';
import { type StripeList } from './stripe.transformers';
import { providerErrorFor } from './stripe.errors';
import { isDestinationCharge } from './stripe.splits';

/** Every documented Refund `status`. */
export type StripeRefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';

export interface StripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  created: number;
  currency: string;
  status: StripeRefundStatus;
  payment_intent: string | null;
  charge: string | null;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | 'expired_uncaptured_charge' | null;
  metadata: Record<string, string> | null;
  failure_reason?: string | null;
  next_action?: { type: string } | null;
}

/** The metadata key that marks a refund as ours (and names it). */
export const REFUND_ID_METADATA = 'orquestra_refund_id';
const REASON_METADATA = 'orquestra_reason';
const STRIPE_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);

/** Every Refund status; a new one fails to compile here. */
export function mapRefundStatus(status: StripeRefundStatus): ProviderRefundStatus {
  switch (status) {
    case 'pending':
    case 'requires_action': // boleto: waiting for the payer's bank details
      return 'pending';
    case 'succeeded':
      return 'succeeded';
    case 'failed':
    case 'canceled': // boleto: the payer never gave bank details; nothing was returned
      return 'failed';
    default:
      return assertNever(status);
  }
}

export function toProviderRefund(refund: StripeRefund): ProviderRefund {
  const status = mapRefundStatus(refund.status);
  const key = refund.metadata?.[REFUND_ID_METADATA];
  const reason = refund.metadata?.[REASON_METADATA] ?? refund.reason ?? undefined;
  return {
    providerRefundId: refund.id,
    ...(key ? { refundKey: key } : {}),
    amount: refund.amount,
    status,
    ...(status === 'failed'
      ? {
          failureCode: refund.status === 'canceled' ? 'refund_canceled' : `refund_${refund.failure_reason ?? 'failed'}`,
          failureReason: refund.status === 'canceled' ? 'Stripe: reembolso cancelado (o pagador não informou os dados bancários)' : `Stripe: reembolso falhou (${refund.failure_reason ?? 'sem motivo'})`,
        }
      : {}),
    ...(reason ? { reason } : {}),
    createdAt: new Date(refund.created * 1000),
  };
}

/**
 * `POST /v1/refunds` parameters: the intent, the amount in centavos, our id (and the merchant's
 * free-text reason) in metadata; Stripe's `reason` only when the text is one of its three values.
 */
export function buildRefundParams(input: RefundChargeInput): Record<string, FormValue> {
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) throw new RangeError(`refund amount must be a positive integer of cents, got ${input.amount}`);
  const reason = input.reason?.trim();
  return {
    payment_intent: input.providerPaymentId,
    amount: input.amount,
    ...(reason && STRIPE_REASONS.has(reason) ? { reason } : {}),
    metadata: { [REFUND_ID_METADATA]: input.refundId, ...(reason ? { [REASON_METADATA]: Array.from(reason).slice(0, 500).join('') } : {}) },
  };
}

type Answer = { status: number; body: unknown };
export type StripeRefundApi = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', params?: Record<string, FormValue>, idempotencyKey?: string) => Promise<Answer>;

/** Every refund of a PaymentIntent (ours carry our id in metadata; dashboard ones do not). */
export async function listIntentRefunds(api: StripeRefundApi, paymentIntentId: string): Promise<StripeRefund[]> {
  const answer = await api('GET', '/v1/refunds', 'read', { payment_intent: paymentIntentId, limit: 100 });
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list refunds');
  return (answer.body as StripeList<StripeRefund>).data ?? [];
}

export async function refundStripePaymentIntent(api: StripeRefundApi, input: RefundChargeInput): Promise<ProviderRefund> {
  let params: Record<string, FormValue>;
  try {
    params = buildRefundParams(input);
  } catch (err) {
    throw new ProviderError('rejected', 'provider_rejected', `stripe refund: ${(err as Error).message}`);
  }
  const existing = (await listIntentRefunds(api, input.providerPaymentId)).find((r) => r.metadata?.[REFUND_ID_METADATA] === input.refundId);
  const refund = existing ?? (await createRefund(api, { ...params, ...(await reverseTransferOf(api, input.providerPaymentId)) }, input.refundId));
  if (refund.amount !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `stripe refund: ${input.refundId} already names refund ${refund.id} of another amount`);
  }
  return toProviderRefund(refund);
}

/**
 * A destination charge's refund takes the connected account's part back in proportion
 * (`reverse_transfer=true`, stripe.splits.ts); the intent is read to know, since only a charge
 * with a transfer has one to reverse.
 */
async function reverseTransferOf(api: StripeRefundApi, paymentIntentId: string): Promise<Record<string, FormValue>> {
  const answer = await api('GET', `/v1/payment_intents/${encodeURIComponent(paymentIntentId)}`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get payment intent');
  return isDestinationCharge(answer.body) ? { reverse_transfer: true } : {};
}

async function createRefund(api: StripeRefundApi, params: Record<string, FormValue>, refundId: string): Promise<StripeRefund> {
  const answer = await api('POST', '/v1/refunds', 'write', params, refundId);
  if (answer.status === 200) return answer.body as StripeRefund;
  throw providerErrorFor(answer.status, answer.body, 'create refund');
}

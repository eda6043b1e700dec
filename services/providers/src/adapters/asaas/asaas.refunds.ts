/**
 * Asaas refunds ("estornos"): wire types, the exhaustive status map, how our refund id travels in
 * the description, and the idempotent `refundCharge` flow (given the adapter's `api` call).
 * Sources: docs.asaas.com "Estornar cobrança" (`POST /v3/payments/{id}/refund` `{value?,
 * description?}`, partial allowed, answers the payment), "Refunds" (docs.asaas.com/docs/refunds:
 * `refunds: [{dateCreated, status: PENDING|DONE|CANCELLED, value, description,
 * transactionReceiptUrl}]` on the payment) and `GET /v3/payments/{id}/refunds`.
 *
 * Asaas takes no idempotency key and gives refunds no id. So our refund id is written into the
 * description (`… [orquestra:re_…]`), every refund first lists the charge's refunds and answers the
 * one carrying our id if there is one, and refunds are named by a digest of what Asaas reports.
 */
import { assertNever } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { ProviderError, type ProviderRefund, type ProviderRefundStatus, type RefundChargeInput } from '../provider-adapter';
import { providerErrorFor } from './asaas.errors';
import { centsToReais, parseSaoPauloTime, reaisToCents, type DecimalText } from './asaas.transformers';

export type AsaasRefundStatus = 'PENDING' | 'DONE' | 'CANCELLED';

export interface AsaasRefund {
  dateCreated: string;
  status: AsaasRefundStatus;
  value: DecimalText;
  description?: string | null;
  transactionReceiptUrl?: string | null;
}

/** Every documented refund status; a new one fails to compile here. */
export function mapRefundStatus(status: AsaasRefundStatus): ProviderRefundStatus {
  switch (status) {
    case 'PENDING':
      return 'pending';
    case 'DONE':
      return 'succeeded';
    case 'CANCELLED':
      return 'failed';
    default:
      return assertNever(status);
  }
}

const KEY_TAG = /\s*\[orquestra:(re_[0-9A-Za-z_]+)\]\s*$/;
/** Asaas keeps descriptions of up to 500 characters; the tag needs about 45. */
const REASON_MAX = 400;

/** `Cliente desistiu [orquestra:re_01j…]`: the reason (or a default) with our refund id at the end. */
export function refundDescription(refundId: string, reason: string | undefined): string {
  const text = Array.from(reason?.trim() || 'Reembolso').slice(0, REASON_MAX).join('');
  return `${text} [orquestra:${refundId}]`;
}

/** Our refund id in a description we wrote; undefined for refunds made elsewhere. */
export function refundKeyOf(description: string | null | undefined): string | undefined {
  return KEY_TAG.exec(description ?? '')?.[1];
}

/**
 * A stable id for a refund Asaas gives none: a digest of the charge and what Asaas reports about
 * the refund (its creation time, value and description), plus its rank among identical ones.
 */
export function refundIdFor(paymentId: string, refund: AsaasRefund, occurrence: number): string {
  const digest = createHash('sha256').update(`${paymentId}|${refund.dateCreated}|${refund.value}|${refund.description ?? ''}|${occurrence}`).digest('hex');
  return `asaas_rf_${digest.slice(0, 20)}`;
}

/** The refunds of a charge as we report them, ours carrying their key. */
export function toProviderRefunds(paymentId: string, refunds: AsaasRefund[] | null | undefined): ProviderRefund[] {
  const seen = new Map<string, number>();
  return (refunds ?? []).map((refund) => {
    const identity = `${refund.dateCreated}|${refund.value}|${refund.description ?? ''}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    const status = mapRefundStatus(refund.status);
    const refundKey = refundKeyOf(refund.description);
    const reason = (refund.description ?? '').replace(KEY_TAG, '').trim();
    const createdAt = parseSaoPauloTime(refund.dateCreated);
    return {
      providerRefundId: refundIdFor(paymentId, refund, occurrence),
      ...(refundKey ? { refundKey } : {}),
      amount: reaisToCents(refund.value),
      status,
      ...(status === 'failed' ? { failureCode: 'refund_cancelled', failureReason: 'Asaas: estorno cancelado' } : {}),
      ...(reason ? { reason } : {}),
      ...(createdAt ? { createdAt } : {}),
    };
  });
}

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

async function listRefunds(api: Api, paymentId: string): Promise<ProviderRefund[]> {
  const answer = await api('GET', `/payments/${encodeURIComponent(paymentId)}/refunds`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list refunds');
  return toProviderRefunds(paymentId, (answer.body as { data?: AsaasRefund[] }).data);
}

/**
 * Lists the charge's refunds first: one carrying our refund id is the answer (a repeat after a lost
 * answer), so no request refunds twice; otherwise `POST …/refund`. Any 4xx refusal of the refund
 * (over what is left, a charge not received) is `rejected`: no other account could refund it.
 */
export async function refundAsaasPayment(api: Api, input: RefundChargeInput): Promise<ProviderRefund> {
  let value;
  try {
    value = centsToReais(input.amount);
  } catch (err) {
    throw new ProviderError('rejected', 'provider_rejected', `asaas refund: ${(err as Error).message}`);
  }
  const mine = (refunds: ProviderRefund[]) => refunds.find((r) => r.refundKey === input.refundId);
  const earlier = mine(await listRefunds(api, input.providerPaymentId));
  if (earlier) return checked(earlier, input);
  const answer = await api('POST', `/payments/${encodeURIComponent(input.providerPaymentId)}/refund`, 'write', {
    value,
    description: refundDescription(input.refundId, input.reason),
  });
  if (answer.status !== 200) {
    const error = providerErrorFor(answer.status, answer.body, 'refund');
    if (answer.status === 400 || answer.status === 409 || answer.status === 422) {
      throw new ProviderError('rejected', 'provider_rejected', error.message, answer.status);
    }
    throw error;
  }
  const payment = answer.body as { refunds?: AsaasRefund[] | null };
  const made = mine(toProviderRefunds(input.providerPaymentId, payment.refunds)) ?? mine(await listRefunds(api, input.providerPaymentId));
  if (!made) throw new ProviderError('ambiguous', 'provider_error', `asaas refund: accepted, but no refund of ${input.refundId} is listed`);
  return checked(made, input);
}

function checked(refund: ProviderRefund, input: RefundChargeInput): ProviderRefund {
  if (refund.amount !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `asaas refund: ${input.refundId} already refunded another amount (${refund.amount})`);
  }
  return refund;
}

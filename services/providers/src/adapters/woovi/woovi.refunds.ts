/**
 * Woovi refunds: wire types, the exhaustive status map and the `refundCharge` flow (given the
 * adapter's `api` call). Sources (developers.woovi.com, "Reembolso"): `POST /api/v1/refund`
 * `{correlationID, transactionEndToEndId, value (cents), comment ≤ 140}` and
 * `POST /api/v1/charge/{id}/refund` `{correlationID, value?, comment?}` answer
 * `{refund:{status: IN_PROCESSING|CONFIRMED|REJECTED, value, correlationID, refundId, time, comment}}`;
 * `GET /api/v1/charge/{id}/refund` lists `{refunds:[{status, value, correlationID, endToEndId, time,
 * comment}]}` (docs "Como buscar todos os reembolsos de uma cobrança usando a API?"). The refund's
 * correlationID is its idempotency key ("docs: idempotência de reembolsos").
 *
 * Refunds are named by their correlationID everywhere (the charge's list carries no refundId).
 */
import { assertNever } from '@orquestra/platform';
import { ProviderError, type ProviderRefund, type ProviderRefundStatus, type RefundChargeInput } from '../provider-adapter';
import { providerErrorFor } from './woovi.transformers';

export type WooviRefundStatus = 'IN_PROCESSING' | 'CONFIRMED' | 'REJECTED';

export interface WooviRefund {
  status: WooviRefundStatus;
  value: number;
  correlationID: string;
  refundId?: string;
  endToEndId?: string;
  time?: string;
  comment?: string | null;
}

/** Every documented refund status; a new one fails to compile here. */
export function mapRefundStatus(status: WooviRefundStatus): ProviderRefundStatus {
  switch (status) {
    case 'IN_PROCESSING':
      return 'pending';
    case 'CONFIRMED':
      return 'succeeded';
    case 'REJECTED':
      return 'failed';
    default:
      return assertNever(status);
  }
}

/** Our refund id as the refund's correlationID: `re_01j…` is kept; other characters become `-`. */
export function refundCorrelationIdFor(refundId: string): string {
  const id = refundId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100);
  if (id.length === 0) throw new RangeError(`cannot make a correlationID of ${JSON.stringify(refundId)}`);
  return id;
}

export function toProviderRefund(refund: WooviRefund): ProviderRefund {
  const status = mapRefundStatus(refund.status);
  const time = Date.parse(refund.time ?? '');
  return {
    providerRefundId: refund.correlationID,
    // Whoever asked for it chose the correlationID: for ours it is our refund id.
    refundKey: refund.correlationID,
    amount: refund.value,
    status,
    ...(status === 'failed' ? { failureCode: 'refund_rejected', failureReason: 'Woovi: reembolso rejeitado' } : {}),
    ...(refund.comment ? { reason: refund.comment } : {}),
    ...(Number.isFinite(time) ? { createdAt: new Date(time) } : {}),
  };
}

const COMMENT_MAX = 140;

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

/**
 * By end-to-end id when we know the Pix that paid the charge, otherwise by the charge's id. Either
 * way the correlationID derived from our refund id makes a repeat answer the first refund.
 */
export async function refundWooviCharge(api: Api, input: RefundChargeInput): Promise<ProviderRefund> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new ProviderError('rejected', 'provider_rejected', `woovi refund: amount must be a positive integer of cents, got ${input.amount}`);
  }
  let correlationID: string;
  try {
    correlationID = refundCorrelationIdFor(input.refundId);
  } catch (err) {
    throw new ProviderError('rejected', 'provider_rejected', `woovi refund: ${(err as Error).message}`);
  }
  const comment = input.reason?.trim() ? Array.from(input.reason.trim()).slice(0, COMMENT_MAX).join('') : undefined;
  const body = { correlationID, value: input.amount, ...(comment ? { comment } : {}) };
  const answer = input.endToEndId
    ? await api('POST', '/api/v1/refund', 'write', { ...body, transactionEndToEndId: input.endToEndId })
    : await api('POST', `/api/v1/charge/${encodeURIComponent(input.providerPaymentId)}/refund`, 'write', body);
  if (answer.status !== 200 && answer.status !== 201) {
    const error = providerErrorFor(answer.status, answer.body, 'refund');
    // A refusal of the refund itself (over what is left, a Pix not received) is final here.
    if (error.kind === 'rejected' || (answer.status === 400 && error.kind !== 'not_found')) {
      throw new ProviderError('rejected', 'provider_rejected', error.message, answer.status);
    }
    throw error;
  }
  const refund = (answer.body as { refund?: WooviRefund } | undefined)?.refund;
  if (!refund || typeof refund.value !== 'number') {
    throw new ProviderError('ambiguous', 'provider_error', `woovi refund: HTTP ${answer.status} without a readable refund`, answer.status);
  }
  if (refund.value !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `woovi refund: correlationID ${correlationID} already holds a refund of another amount`);
  }
  return toProviderRefund(refund);
}

/** The refunds of a charge (`GET /api/v1/charge/{id}/refund`), ours and those made in the dashboard. */
export async function wooviChargeRefunds(api: Api, chargeId: string): Promise<ProviderRefund[]> {
  const answer = await api('GET', `/api/v1/charge/${encodeURIComponent(chargeId)}/refund`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list refunds');
  return ((answer.body as { refunds?: WooviRefund[] } | undefined)?.refunds ?? []).map(toProviderRefund);
}

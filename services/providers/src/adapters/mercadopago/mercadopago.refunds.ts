/**
 * Mercado Pago refunds: wire types, the exhaustive refund status map, the request body and the
 * `refundCharge` flow (given the adapter's authenticated `api` call). Sources: API reference
 * "Create refund" (`POST /v1/payments/{id}/refunds`, body `{amount}` in reais, mandatory
 * `X-Idempotency-Key`; mercadopago.com.br/developers/en/reference/chargebacks/_payments_id_refunds/post)
 * and the Pix refund guide (`X-Render-In-Process-Refunds: true` makes a refund still in process
 * answer 201 `in_process` instead of a 400;
 * developers/en/docs/checkout-api/payment-management/cancellations-and-refunds/refund-pix).
 */
import { assertNever } from '@orquestra/platform';
import { ProviderError, type ProviderRefund, type ProviderRefundStatus, type RefundChargeInput } from '../provider-adapter';
import { centsToReaisLiteral, idempotencyHeaderFor, reaisToCents, type MercadoPagoAmount } from './mercadopago.transformers';
import { providerErrorFor } from './mercadopago.errors';

/** Every documented refund `status`. */
export type MercadoPagoRefundStatus = 'approved' | 'in_process' | 'rejected' | 'cancelled';

export interface MercadoPagoRefund {
  id: number;
  payment_id: number;
  amount: MercadoPagoAmount;
  status: MercadoPagoRefundStatus;
  date_created?: string | null;
  reason?: string | null;
  source?: { id?: string; name?: string; type?: string } | null;
}

/** Every documented refund status; a new one fails to compile here. */
export function mapRefundStatus(status: MercadoPagoRefundStatus): ProviderRefundStatus {
  switch (status) {
    case 'in_process': // Pix refund waiting for Banco Central (contingency)
      return 'pending';
    case 'approved':
      return 'succeeded';
    case 'rejected':
    case 'cancelled':
      return 'failed';
    default:
      return assertNever(status);
  }
}

/** A refund as we report it; `refundKey` only when we know it is ours (the answer to our request). */
export function toProviderRefund(refund: MercadoPagoRefund, refundKey?: string): ProviderRefund {
  const status = mapRefundStatus(refund.status);
  const created = Date.parse(refund.date_created ?? '');
  return {
    providerRefundId: String(refund.id),
    ...(refundKey ? { refundKey } : {}),
    amount: reaisToCents(refund.amount),
    status,
    ...(status === 'failed' ? { failureCode: `refund_${refund.status}`, failureReason: `Mercado Pago: reembolso ${refund.status}` } : {}),
    ...(refund.reason ? { reason: refund.reason } : {}),
    ...(Number.isFinite(created) ? { createdAt: new Date(created) } : {}),
  };
}

/** The refunds a payment read lists (`refunds[]`), ours and those made in the dashboard. */
export function refundsOfPayment(payment: { refunds?: MercadoPagoRefund[] | null }): ProviderRefund[] | undefined {
  const refunds = payment.refunds ?? [];
  return refunds.length > 0 ? refunds.map((r) => toProviderRefund(r)) : undefined;
}

/** `{"amount":12.34}` written from integer math, never from a float. */
export function serializeRefundRequest(amountCents: number): string {
  return `{"amount":${centsToReaisLiteral(amountCents)}}`;
}

type Api = (method: 'POST', path: string, operation: 'write', body: string, headers: Record<string, string>) => Promise<{ status: number; body: unknown }>;

/**
 * `POST /v1/payments/{id}/refunds` with our refund id as the X-Idempotency-Key: a repeat (a retry
 * after a lost answer) answers the refund the first request made, never a second one.
 */
export async function refundMercadoPagoPayment(api: Api, input: RefundChargeInput): Promise<ProviderRefund> {
  if (!/^\d{1,19}$/.test(input.providerPaymentId)) throw new ProviderError('not_found', 'not_found', `mercadopago: ${input.providerPaymentId} is not a payment id`);
  let body: string;
  try {
    body = serializeRefundRequest(input.amount);
  } catch (err) {
    throw new ProviderError('rejected', 'provider_rejected', `mercadopago refund: ${(err as Error).message}`);
  }
  const answer = await api('POST', `/v1/payments/${input.providerPaymentId}/refunds`, 'write', body, {
    'x-idempotency-key': idempotencyHeaderFor(input.refundId),
    'x-render-in-process-refunds': 'true',
  });
  if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'refund');
  const refund = toProviderRefund(answer.body as MercadoPagoRefund, input.refundId);
  if (refund.amount !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `mercadopago refund: key ${input.refundId} already holds refund ${refund.providerRefundId} of another amount`);
  }
  return refund;
}

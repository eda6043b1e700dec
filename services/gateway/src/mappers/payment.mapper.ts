import { modeName, PAYMENT_STATUSES, REFUND_SOURCES, REFUND_STATUSES, toPublicCustomer, toPublicNextAction, type common, type payments } from '@orquestra/contracts';
import { PAYMENT_METHODS } from '../schemas/create-payment.schema';
import {
  NEXT_ACTION_TYPES,
  type NextActionJson,
  type PaymentDetailJson,
  type PaymentJson,
  type PaymentListJson,
  type RefundJson,
} from '../schemas/payment.response.schema';
import { oneOf } from './narrow';
import { nullIfEmpty } from './nullable';

function toNextAction(action: common.NextAction | undefined): NextActionJson | null {
  const shown = toPublicNextAction(action);
  return shown && { ...shown, type: oneOf(NEXT_ACTION_TYPES, shown.type, 'next_action.type') };
}

/** A payment as the public API shows it (§2), without attempts and events (lists, create, cancel). */
export function toPaymentJson(payment: payments.Payment): PaymentJson {
  return {
    id: payment.id,
    object: 'payment',
    mode: modeName(payment.mode),
    method: payment.method ? oneOf(PAYMENT_METHODS, payment.method, 'method') : null,
    status: oneOf(PAYMENT_STATUSES, payment.status, 'status'),
    amount: payment.amount,
    amount_refunded: payment.amount_refunded,
    currency: 'BRL',
    fee: payment.fee,
    net: payment.net,
    provider: nullIfEmpty(payment.provider),
    provider_account_id: nullIfEmpty(payment.provider_account_id),
    provider_payment_id: nullIfEmpty(payment.provider_payment_id),
    next_action: toNextAction(payment.next_action),
    metadata: { ...payment.metadata },
    failure_reason: nullIfEmpty(payment.failure_reason),
    failure_code: nullIfEmpty(payment.failure_code),
    end_to_end_id: nullIfEmpty(payment.end_to_end_id),
    subscription_id: nullIfEmpty(payment.subscription_id),
    splits: payment.splits.map((split) => ({ subaccount_id: split.subaccount_id, amount: split.amount })),
    payment_url: nullIfEmpty(payment.payment_url),
    expires_at: nullIfEmpty(payment.expires_at),
    tracking: { ...payment.tracking },
    customer: toPublicCustomer(payment.customer, payment.customer_id),
    description: nullIfEmpty(payment.description),
    created_at: payment.created_at,
    updated_at: nullIfEmpty(payment.updated_at),
  };
}

/** A refund as the public API shows it (§2). */
export function toRefundJson(refund: payments.Refund): RefundJson {
  return {
    id: refund.id,
    object: 'refund',
    payment_id: refund.payment_id,
    amount: refund.amount,
    status: oneOf(REFUND_STATUSES, refund.status, 'refund.status'),
    reason: nullIfEmpty(refund.reason),
    source: oneOf(REFUND_SOURCES, refund.source, 'refund.source'),
    provider_refund_id: nullIfEmpty(refund.provider_refund_id),
    failure_code: nullIfEmpty(refund.failure_code),
    failure_reason: nullIfEmpty(refund.failure_reason),
    created_at: refund.created_at,
    updated_at: refund.updated_at,
  };
}

/** One payment as GET /v1/payments/{id} shows it: with its attempts, refunds and events. */
export function toPaymentDetailJson(payment: payments.Payment): PaymentDetailJson {
  return {
    ...toPaymentJson(payment),
    attempts: payment.attempts.map((attempt) => ({
      id: attempt.id,
      object: 'payment_attempt' as const,
      provider_account_id: nullIfEmpty(attempt.provider_account_id),
      provider: nullIfEmpty(attempt.provider),
      outcome: attempt.outcome,
      failure_code: nullIfEmpty(attempt.failure_code),
      failure_reason: nullIfEmpty(attempt.failure_reason),
      latency_ms: attempt.latency_ms,
      created_at: attempt.created_at,
    })),
    refunds: payment.refunds.map(toRefundJson),
    events: payment.events.map((event) => ({ id: event.id, type: event.type, created: event.created })),
  };
}

export function toPaymentListJson(response: payments.ListPaymentsResponse): PaymentListJson {
  return { object: 'list', data: response.data.map(toPaymentJson), has_more: response.has_more };
}

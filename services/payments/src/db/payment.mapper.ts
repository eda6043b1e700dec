import { modeFromName, toPublicPayment, type payments } from '@orquestra/contracts';
import { toProtoPaymentCustomer } from './payment-customer.mapper';
import { toProtoNextAction } from './payment-next-action.mapper';
import type { PaymentDoc, RefundDoc } from './payment.model';

/** Stored refund → gRPC message. */
export function toProtoRefund(refund: RefundDoc, paymentId: string): payments.Refund {
  return {
    id: refund.id,
    payment_id: paymentId,
    amount: refund.amount,
    status: refund.status,
    reason: refund.reason,
    source: refund.source,
    provider_refund_id: refund.provider_refund_id,
    failure_code: refund.failure_code,
    failure_reason: refund.failure_reason,
    created_at: new Date(refund.created_at).toISOString(),
    updated_at: new Date(refund.updated_at).toISOString(),
  };
}

/** The refunds a reader sees: reservations of in-flight requests are not refunds yet. */
export function visibleRefunds(doc: PaymentDoc): RefundDoc[] {
  return (doc.refunds ?? []).filter((refund) => refund.announced);
}

/** Stored payment → gRPC message. */
export function toProtoPayment(doc: PaymentDoc): payments.Payment {
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    method: doc.method,
    status: doc.status,
    amount: doc.amount,
    amount_refunded: doc.amount_refunded,
    currency: 'BRL',
    fee: doc.fee,
    net: doc.net,
    provider: doc.provider,
    provider_account_id: doc.provider_account_id,
    provider_payment_id: doc.provider_payment_id,
    next_action: doc.next_action ? toProtoNextAction(doc.next_action) : undefined,
    metadata: doc.metadata,
    failure_reason: doc.failure_reason,
    failure_code: doc.failure_code,
    end_to_end_id: doc.end_to_end_id,
    payment_url: '',
    expires_at: doc.expires_at?.toISOString() ?? '',
    tracking: doc.tracking,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    description: doc.description,
    customer: toProtoPaymentCustomer(doc.customer),
    source_key_id: doc.source_key_id,
    customer_id: doc.customer_id ?? '',
    subscription_id: doc.subscription_id ?? '',
    cycle: doc.cycle ?? 0,
    due_date: doc.due_date ?? '',
    splits: (doc.splits ?? []).map((split) => ({ subaccount_id: split.subaccount_id, amount: split.amount })),
    attempts: doc.attempts.map((attempt) => ({
      id: attempt.id,
      provider_account_id: attempt.provider_account_id,
      provider: attempt.provider,
      outcome: attempt.outcome,
      failure_code: attempt.failure_code,
      failure_reason: attempt.failure_reason,
      latency_ms: attempt.latency_ms,
      created_at: new Date(attempt.created_at).toISOString(),
    })),
    events: doc.events.map((event) => ({ id: event.id, type: event.type, created: event.created })),
    refunds: visibleRefunds(doc).map((refund) => toProtoRefund(refund, doc._id)),
  };
}

/** The public object carried in events (no attempts/events history: that is per read). */
export function publicPaymentObject(doc: PaymentDoc, paymentUrl: string): Record<string, unknown> {
  return toPublicPayment({ ...toProtoPayment(doc), payment_url: paymentUrl }, { withHistory: false });
}

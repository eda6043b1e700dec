import type { Payment } from '../generated/orquestra/payments/v1/payments';
import { modeName } from '../mode';
import { toPublicCustomer } from './customer.public';
import { toPublicNextAction } from './next-action.public';

const orNull = (value: string | undefined): string | null => (value ? value : null);

/**
 * The public payment object (spec §2) built from the gRPC message. The one definition of that
 * shape: the gateway answers with it and the payments service puts it in events' data.object.
 */
export function toPublicPayment(payment: Payment, options: { withHistory: boolean }) {
  return {
    id: payment.id,
    object: 'payment' as const,
    mode: modeName(payment.mode),
    method: orNull(payment.method),
    status: payment.status,
    amount: payment.amount,
    amount_refunded: payment.amount_refunded,
    currency: 'BRL' as const,
    fee: payment.fee,
    net: payment.net,
    provider: orNull(payment.provider),
    provider_account_id: orNull(payment.provider_account_id),
    provider_payment_id: orNull(payment.provider_payment_id),
    next_action: toPublicNextAction(payment.next_action),
    description: orNull(payment.description),
    customer: toPublicCustomer(payment.customer, payment.customer_id),
    metadata: payment.metadata,
    tracking: payment.tracking,
    failure_code: orNull(payment.failure_code),
    failure_reason: orNull(payment.failure_reason),
    end_to_end_id: orNull(payment.end_to_end_id),
    subscription_id: orNull(payment.subscription_id),
    splits: payment.splits.map((split) => ({ subaccount_id: split.subaccount_id, amount: split.amount })),
    payment_url: payment.payment_url,
    expires_at: orNull(payment.expires_at),
    created_at: payment.created_at,
    updated_at: payment.updated_at,
    ...(options.withHistory
      ? {
          attempts: payment.attempts.map((attempt) => ({
            id: attempt.id,
            object: 'payment_attempt' as const,
            provider_account_id: attempt.provider_account_id,
            provider: attempt.provider,
            outcome: attempt.outcome,
            failure_code: orNull(attempt.failure_code),
            failure_reason: orNull(attempt.failure_reason),
            latency_ms: attempt.latency_ms,
            created_at: attempt.created_at,
          })),
          events: payment.events.map((event) => ({ id: event.id, type: event.type, created: event.created })),
        }
      : {}),
  };
}

export type PublicPayment = ReturnType<typeof toPublicPayment>;

import type { Subscription } from '../generated/orquestra/subscriptions/v1/subscriptions';
import { modeName } from '../mode';
import { toPublicPayment, type PublicPayment } from './payment.public';

const orNull = (value: string | undefined): string | null => (value ? value : null);

/**
 * The public subscription object (spec §2 Subscription) built from the gRPC message. The one
 * definition of that shape: the gateway answers with it and the subscriptions service puts it in
 * events' data.object. `payments` (the cycles) is shown only when one subscription is retrieved.
 */
export function toPublicSubscription(subscription: Subscription, options: { withPayments: boolean }) {
  const approval = subscription.approval;
  return {
    id: subscription.id,
    object: 'subscription' as const,
    mode: modeName(subscription.mode),
    status: subscription.status,
    amount: subscription.amount ?? null,
    first_amount: subscription.first_amount,
    currency: 'BRL' as const,
    frequency: subscription.frequency,
    start_date: subscription.start_date,
    end_date: orNull(subscription.end_date),
    next_charge_date: orNull(subscription.next_charge_date),
    description: subscription.description,
    retry: subscription.retry,
    provider: subscription.provider,
    provider_account_id: subscription.provider_account_id,
    approval: approval
      ? { qr_code: approval.qr_code, qr_code_base64: orNull(approval.qr_code_base64), url: orNull(approval.url) }
      : null,
    customer: {
      id: subscription.customer?.id ?? '',
      name: subscription.customer?.name ?? '',
      document: subscription.customer?.document ?? '',
    },
    metadata: subscription.metadata,
    tracking: subscription.tracking,
    created_at: subscription.created_at,
    updated_at: subscription.updated_at,
    ...(options.withPayments
      ? { payments: subscription.payments.map((payment): PublicPayment => toPublicPayment(payment, { withHistory: false })) }
      : {}),
  };
}

export type PublicSubscription = ReturnType<typeof toPublicSubscription>;

import { modeFromName, toPublicSubscription, type subscriptions } from '@orquestra/contracts';
import type { SubscriptionDoc } from './subscription.model';

/** Stored subscription → gRPC message; its cycles (`payments`) are read from payments by GetSubscription. */
export function toProtoSubscription(doc: SubscriptionDoc): subscriptions.Subscription {
  const approval = doc.status === 'pending' ? doc.approval : null;
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    status: doc.status,
    ...(doc.amount !== null ? { amount: doc.amount } : {}),
    first_amount: doc.first_amount,
    frequency: doc.frequency,
    start_date: doc.start_date,
    ...(doc.end_date !== null ? { end_date: doc.end_date } : {}),
    ...(doc.next_charge_date !== null ? { next_charge_date: doc.next_charge_date } : {}),
    description: doc.description,
    retry: doc.retry,
    provider: doc.provider,
    provider_account_id: doc.provider_account_id,
    ...(approval
      ? {
          approval: {
            qr_code: approval.qr_code,
            ...(approval.qr_code_base64 ? { qr_code_base64: approval.qr_code_base64 } : {}),
            ...(approval.url ? { url: approval.url } : {}),
          },
        }
      : {}),
    // The customer record (cus_…) payments keeps, found or made by document when the subscription
    // was created (subscriptions.service.ts); one stored before that is linked by its first cycle payment.
    customer: { id: doc.customer_id ?? '', name: doc.customer.name, document: doc.customer.document },
    metadata: doc.metadata,
    tracking: doc.tracking,
    payments: [],
    source_key_id: doc.source_key_id,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** The public object events carry (the gateway answers the same, from the same function). */
export function publicSubscriptionObject(doc: SubscriptionDoc): Record<string, unknown> {
  return toPublicSubscription(toProtoSubscription(doc), { withPayments: false });
}

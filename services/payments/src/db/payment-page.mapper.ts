import { modeFromName, type paymentPage } from '@orquestra/contracts';
import { toProtoNextAction } from './payment-next-action.mapper';
import type { PaymentDoc } from './payment.model';

/**
 * Stored payment → what the public payment page may show. Deliberately narrow: no customer data,
 * metadata, tracking, provider ids, attempts or keys; anyone holding the link sees only this.
 */
export function toPaymentPage(
  doc: PaymentDoc,
  availableMethods: string[],
  cardFields = false,
): paymentPage.PaymentPage {
  const action = doc.next_action;
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    status: doc.status,
    method: doc.method,
    amount: doc.amount,
    description: doc.description,
    next_action: action ? toProtoNextAction(action) : undefined,
    expires_at: doc.expires_at ? new Date(doc.expires_at).toISOString() : '',
    available_methods: doc.status === 'requires_method' ? availableMethods : [],
    failure_code: doc.failure_code,
    paid_at: doc.paid_at ? new Date(doc.paid_at).toISOString() : '',
    merchant_id: doc.merchant_id,
    card_fields: doc.status === 'requires_method' && availableMethods.includes('card') && cardFields,
  };
}

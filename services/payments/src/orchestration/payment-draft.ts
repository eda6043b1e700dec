import type { common, payments } from '@orquestra/contracts';
import { toPaymentCustomerDoc } from '../db/payment-customer.mapper';
import type { PaymentDoc } from '../db/payment.model';

/** The payment as it is before any charge: everything the merchant gave, nothing from a provider. */
export function paymentDraft(request: payments.CreatePaymentRequest, caller: common.Caller, mode: 'test' | 'live', paymentId: string, now = new Date()): PaymentDoc {
  return {
    _id: paymentId,
    merchant_id: caller.merchant_id,
    mode,
    source_key_id: caller.key_id,
    method: request.method,
    status: 'pending',
    amount: request.amount,
    amount_refunded: 0,
    currency: 'BRL',
    fee: 0,
    net: request.amount,
    description: request.description,
    customer: toPaymentCustomerDoc(request.customer),
    metadata: request.metadata,
    tracking: request.tracking,
    provider: '',
    provider_account_id: '',
    provider_payment_id: '',
    next_action: null,
    failure_code: '',
    failure_reason: '',
    end_to_end_id: '',
    expires_at: null,
    paid_at: null,
    attempts: [],
    refunds: [],
    events: [],
    idempotency_key: request.idempotency_key,
    ...(request.card?.token || request.card?.id
      ? {
          card: {
            token: request.card.token,
            installments: request.card.installments || 1,
            brand: request.card.brand,
            ...(request.card.id ? { id: request.card.id, without_cvc: request.card.without_cvc } : {}),
          },
        }
      : {}),
    created_at: now,
    updated_at: now,
    outbox: [],
    outbox_since: null,
    due_at: null,
  };
}

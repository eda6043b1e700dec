import { PAYMENT_ATTEMPT_RECORDED, toPublicRefund, type PaymentAttemptRecorded } from '@orquestra/contracts';
import { newId, type EventEnvelope } from '@orquestra/platform';
import type { PaymentLinks } from '../domain/payment-links';
import { publicPaymentObject, toProtoRefund } from './payment.mapper';
import type { AttemptDoc, PaymentDoc, RefundDoc } from './payment.model';

type EventSource = Pick<PaymentDoc, '_id' | 'merchant_id' | 'mode' | 'source_key_id'>;

/** An event of the service about one of its documents: its merchant, mode and the key that created it. */
export function envelope(type: string, owner: Pick<PaymentDoc, 'merchant_id' | 'mode' | 'source_key_id'>, object: Record<string, unknown>): EventEnvelope {
  return {
    id: newId('event'),
    type,
    created: Math.floor(Date.now() / 1000),
    merchant_id: owner.merchant_id,
    mode: owner.mode,
    source: owner.source_key_id || null,
    data: { object },
  };
}

/** The event for `doc` as it will be after the change (data.object is the public payment). */
export function paymentEvent(type: string, doc: PaymentDoc, links: PaymentLinks): EventEnvelope {
  return envelope(type, doc, publicPaymentObject(doc, links.paymentUrl(doc._id)));
}

/** The event of one refund of `payment` (data.object is the public refund). */
export function refundEvent(type: string, payment: PaymentDoc, refund: RefundDoc): EventEnvelope {
  return envelope(type, payment, toPublicRefund(toProtoRefund(refund, payment._id)) as unknown as Record<string, unknown>);
}

/** Internal events telling routing how each provider attempt went (per-account health). */
export function attemptEvents(payment: EventSource, attempts: AttemptDoc[]): EventEnvelope[] {
  return attempts.map((attempt) => {
    const object: PaymentAttemptRecorded = {
      payment_id: payment._id,
      provider_account_id: attempt.provider_account_id,
      provider: attempt.provider,
      outcome: attempt.outcome,
      failure_code: attempt.failure_code,
      latency_ms: attempt.latency_ms,
      at: attempt.created_at.toISOString(),
    };
    return envelope(PAYMENT_ATTEMPT_RECORDED, payment, object as unknown as Record<string, unknown>);
  });
}

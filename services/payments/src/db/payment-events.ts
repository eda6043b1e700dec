import { PAYMENT_ATTEMPT_RECORDED, toPublicRefund, type PaymentAttemptRecorded } from '@orquestra/contracts';
import { newEvent, type EventEnvelope } from '@orquestra/platform';
import type { PaymentLinks } from '../domain/payment-links';
import { publicPaymentObject, toProtoRefund } from './payment.mapper';
import type { AttemptDoc, PaymentDoc, RefundDoc } from './payment.model';

type EventSource = Pick<PaymentDoc, '_id' | 'merchant_id' | 'mode' | 'source_key_id'>;

/** The event for `doc` as it will be after the change (data.object is the public payment). */
export function paymentEvent(type: string, doc: PaymentDoc, links: PaymentLinks): EventEnvelope {
  return newEvent(type, doc, publicPaymentObject(doc, links.paymentUrl(doc._id)));
}

/** The event of one refund of `payment` (data.object is the public refund). */
export function refundEvent(type: string, payment: PaymentDoc, refund: RefundDoc): EventEnvelope {
  return newEvent(type, payment, toPublicRefund(toProtoRefund(refund, payment._id)) as unknown as Record<string, unknown>);
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
    return newEvent(PAYMENT_ATTEMPT_RECORDED, payment, object as unknown as Record<string, unknown>);
  });
}

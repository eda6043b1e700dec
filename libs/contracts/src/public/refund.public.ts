import type { RefundObject } from '../events/refund-events';
import type { Refund } from '../generated/orquestra/payments/v1/payments';

const orNull = (value: string | undefined): string | null => (value ? value : null);

/**
 * The public refund object (spec §2) built from the gRPC message: the one definition of that
 * shape for events' data.object. The gateway's typed mapper answers the same fields.
 */
export function toPublicRefund(refund: Refund): RefundObject {
  return {
    id: refund.id,
    object: 'refund',
    payment_id: refund.payment_id,
    amount: refund.amount,
    status: refund.status as RefundObject['status'],
    reason: orNull(refund.reason),
    source: refund.source as RefundObject['source'],
    provider_refund_id: orNull(refund.provider_refund_id),
    failure_code: orNull(refund.failure_code),
    failure_reason: orNull(refund.failure_reason),
    created_at: refund.created_at,
    updated_at: refund.updated_at,
  };
}

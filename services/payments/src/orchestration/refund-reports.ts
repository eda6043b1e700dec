import { refundStatusFromProto, type providers as providersContract, type ProviderRefundReport } from '@orquestra/contracts';
import type { RefundReport } from '../domain/refunds';

/** A refund as the providers service answers it (refund, read charge), in the refund rules' terms. */
export function reportFromProto(refund: providersContract.ProviderRefund): RefundReport {
  return {
    provider_refund_id: refund.provider_refund_id,
    refund_key: refund.refund_key,
    amount: refund.amount,
    status: refundStatusFromProto(refund.status),
    ...(refund.failure_code ? { failure_code: refund.failure_code } : {}),
    ...(refund.failure_reason ? { failure_reason: refund.failure_reason } : {}),
    ...(refund.reason ? { reason: refund.reason } : {}),
  };
}

/** A refund as a provider webhook reports it (internal.provider_charge.updated). */
export function reportFromEvent(refund: ProviderRefundReport): RefundReport {
  return { ...refund };
}

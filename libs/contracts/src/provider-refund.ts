import type { ProviderRefundReport } from './events/provider-charge-updated';
import type { ProviderRefund } from './generated/orquestra/providers/v1/providers';
import { present, type EveryField } from './presence';
import { refundStatusFromProto, refundStatusToProto } from './refund-status';

// A refund as a provider reports it is one shape on both hops: the internal.provider_charge.updated
// event (ProviderRefundReport) and the providers' gRPC answers (ProviderRefund, whose optional
// fields have the same presence). The converters list every field so that a field added on either
// side fails to compile until it is carried.

/** A provider's refund report → the gRPC message (the providers service's answers). */
export function refundReportToProto(report: ProviderRefundReport): ProviderRefund {
  const every: EveryField<ProviderRefund> = {
    provider_refund_id: report.provider_refund_id,
    refund_key: report.refund_key,
    amount: report.amount,
    status: refundStatusToProto(report.status),
    failure_code: report.failure_code,
    failure_reason: report.failure_reason,
    reason: report.reason,
    created_at: report.created_at,
  };
  return present(every);
}

/** The gRPC message → a provider's refund report (what payments' refund rules take). */
export function refundReportFromProto(refund: ProviderRefund): ProviderRefundReport {
  const every: EveryField<ProviderRefundReport> = {
    provider_refund_id: refund.provider_refund_id,
    refund_key: refund.refund_key,
    amount: refund.amount,
    status: refundStatusFromProto(refund.status),
    failure_code: refund.failure_code,
    failure_reason: refund.failure_reason,
    reason: refund.reason,
    created_at: refund.created_at,
  };
  return present(every);
}

import { refundReportFromProto, type providers as providersContract, type ProviderRefundReport } from '@orquestra/contracts';
import type { RefundReport } from '../domain/refunds';

/** A refund as a provider webhook reports it (internal.provider_charge.updated). */
export function reportFromEvent(refund: ProviderRefundReport): RefundReport {
  return { ...refund };
}

/** A refund as the providers service answers it (refund, read charge), in the refund rules' terms. */
export function reportFromProto(refund: providersContract.ProviderRefund): RefundReport {
  return reportFromEvent(refundReportFromProto(refund));
}

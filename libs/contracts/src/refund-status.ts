import { RefundStatus as ProtoRefundStatus } from './generated/orquestra/providers/v1/providers';
import type { RefundStatus } from './public/statuses';

// A local exhaustiveness check: contracts depends on no other project, so not platform's assertNever.
function unhandled(value: never): never {
  throw new Error(`unhandled refund status: ${JSON.stringify(value)}`);
}

/** A refund's status (the public one, which providers report too) → the proto enum. */
export function refundStatusToProto(status: RefundStatus): ProtoRefundStatus {
  switch (status) {
    case 'pending':
      return ProtoRefundStatus.REFUND_STATUS_PENDING;
    case 'succeeded':
      return ProtoRefundStatus.REFUND_STATUS_SUCCEEDED;
    case 'failed':
      return ProtoRefundStatus.REFUND_STATUS_FAILED;
    default:
      return unhandled(status);
  }
}

export function refundStatusFromProto(status: ProtoRefundStatus): RefundStatus {
  switch (status) {
    case ProtoRefundStatus.REFUND_STATUS_PENDING:
      return 'pending';
    case ProtoRefundStatus.REFUND_STATUS_SUCCEEDED:
      return 'succeeded';
    case ProtoRefundStatus.REFUND_STATUS_FAILED:
      return 'failed';
    // Unset or unknown says nothing final: the refund keeps its amount reserved until a known answer.
    case ProtoRefundStatus.REFUND_STATUS_UNSPECIFIED:
    case ProtoRefundStatus.UNRECOGNIZED:
      return 'pending';
    default:
      return unhandled(status);
  }
}

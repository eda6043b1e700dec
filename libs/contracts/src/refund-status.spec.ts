import { RefundStatus as ProtoRefundStatus } from './generated/orquestra/providers/v1/providers';
import { REFUND_STATUSES } from './public/statuses';
import { refundStatusFromProto, refundStatusToProto } from './refund-status';

describe('refund status ⇄ proto RefundStatus', () => {
  it('round-trips every status, each to its own enum value', () => {
    for (const status of REFUND_STATUSES) expect(refundStatusFromProto(refundStatusToProto(status))).toBe(status);
    expect(REFUND_STATUSES.map(refundStatusToProto)).toEqual([
      ProtoRefundStatus.REFUND_STATUS_PENDING,
      ProtoRefundStatus.REFUND_STATUS_SUCCEEDED,
      ProtoRefundStatus.REFUND_STATUS_FAILED,
    ]);
  });

  it('reads an unset or unknown status as pending, never as final', () => {
    expect(refundStatusFromProto(ProtoRefundStatus.REFUND_STATUS_UNSPECIFIED)).toBe('pending');
    expect(refundStatusFromProto(ProtoRefundStatus.UNRECOGNIZED)).toBe('pending');
  });

  it('refuses a value outside both sets instead of guessing', () => {
    expect(() => refundStatusToProto('reversed' as never)).toThrow(/unhandled refund status/);
    expect(() => refundStatusFromProto('REFUND_STATUS_REVERSED' as never)).toThrow(/unhandled refund status/);
  });
});

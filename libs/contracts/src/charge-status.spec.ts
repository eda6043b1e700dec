import { chargeStatusFromProto, chargeStatusToProto, PROVIDER_CHARGE_STATUSES } from './charge-status';
import { ChargeStatus } from './generated/orquestra/providers/v1/providers';

describe('provider charge status ⇄ proto ChargeStatus', () => {
  it('round-trips every status', () => {
    for (const status of PROVIDER_CHARGE_STATUSES) expect(chargeStatusFromProto(chargeStatusToProto(status))).toBe(status);
  });

  it('gives each status its own enum value', () => {
    expect(PROVIDER_CHARGE_STATUSES.map(chargeStatusToProto)).toEqual([
      ChargeStatus.CHARGE_STATUS_PENDING,
      ChargeStatus.CHARGE_STATUS_PAID,
      ChargeStatus.CHARGE_STATUS_FAILED,
      ChargeStatus.CHARGE_STATUS_CANCELED,
    ]);
  });

  it('reads an unset or unknown status as still open, never as final', () => {
    expect(chargeStatusFromProto(ChargeStatus.CHARGE_STATUS_UNSPECIFIED)).toBe('pending');
    expect(chargeStatusFromProto(ChargeStatus.UNRECOGNIZED)).toBe('pending');
  });

  it('refuses a value outside both sets instead of guessing', () => {
    expect(() => chargeStatusToProto('authorized' as never)).toThrow(/unhandled charge status/);
    expect(() => chargeStatusFromProto('CHARGE_STATUS_AUTHORIZED' as never)).toThrow(/unhandled charge status/);
  });
});

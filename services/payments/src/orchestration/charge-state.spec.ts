import { providers as providersContract } from '@orquestra/contracts';
import { chargeStateOf } from './charge-state';

const { ChargeStatus } = providersContract;

describe('chargeStateOf', () => {
  it('maps every charge status the providers service answers', () => {
    expect(chargeStateOf(ChargeStatus.CHARGE_STATUS_PAID)).toBe('paid');
    expect(chargeStateOf(ChargeStatus.CHARGE_STATUS_CANCELED)).toBe('canceled');
    expect(chargeStateOf(ChargeStatus.CHARGE_STATUS_FAILED)).toBe('failed');
    expect(chargeStateOf(ChargeStatus.CHARGE_STATUS_PENDING)).toBe('pending');
  });

  it('reads an unset or unknown status as still open, never as final', () => {
    expect(chargeStateOf(ChargeStatus.CHARGE_STATUS_UNSPECIFIED)).toBe('pending');
    expect(chargeStateOf(ChargeStatus.UNRECOGNIZED)).toBe('pending');
  });
});

import { CYCLE_CHARGE_STATUSES } from '@orquestra/contracts';
import { CYCLE_DEBIT_FAILED, cycleChargeEffect, cycleChargeRefusal, isCycleChargeStatus } from './cycle-charges';

describe('cycle charges', () => {
  it('keeps the payment to send again after a send without an answer about the charge', () => {
    for (const code of ['provider_timeout', 'provider_unavailable', 'provider_error', 'provider_rate_limited', 'service_unavailable', 'internal'] as const) {
      expect(cycleChargeRefusal(code, false)).toBe('unsent');
    }
    // Our own deadline on the call is as ambiguous as a provider timeout, whatever the code says.
    expect(cycleChargeRefusal('provider_rejected', true)).toBe('unsent');
  });

  it('fails the payment on an answer about the charge itself', () => {
    for (const code of ['provider_rejected', 'parameter_invalid', 'parameter_missing', 'not_found', 'method_not_available', 'invalid_credentials'] as const) {
      expect(cycleChargeRefusal(code, false)).toBe('failed');
    }
  });

  it('moves the payment only on a final charge status', () => {
    expect(cycleChargeEffect('paid')).toBe('succeeded');
    expect(cycleChargeEffect('failed')).toBe('failed');
    expect(cycleChargeEffect('canceled')).toBe('canceled');
    expect(cycleChargeEffect('scheduled')).toBe('none');
    expect(cycleChargeEffect('retrying')).toBe('none');
    expect(() => cycleChargeEffect('refunded' as never)).toThrow('unhandled value: refunded');
  });

  it('knows the statuses of the contract, nothing else', () => {
    for (const status of CYCLE_CHARGE_STATUSES) expect(isCycleChargeStatus(status)).toBe(true);
    expect(isCycleChargeStatus('CONCLUIDA')).toBe(false);
  });

  it('names a failed debit with a normalized code and a Portuguese reason', () => {
    expect(CYCLE_DEBIT_FAILED.code).toBe('insufficient_funds');
    expect(CYCLE_DEBIT_FAILED.reason).toMatch(/banco do pagador não debitou/);
  });
});

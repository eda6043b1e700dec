import { canTransition, eventFor, isFinal, PAYOUT_STATUSES } from './payout-states';

describe('payout states', () => {
  it('moves forward only, and final states never change', () => {
    expect(canTransition('pending', 'processing')).toBe(true);
    expect(canTransition('pending', 'paid')).toBe(true);
    expect(canTransition('processing', 'failed')).toBe(true);
    expect(canTransition('processing', 'pending')).toBe(false);
    expect(canTransition('paid', 'failed')).toBe(true); // returned by the bank
    expect(canTransition('paid', 'canceled')).toBe(false);
    expect(canTransition('failed', 'paid')).toBe(false);
    for (const status of PAYOUT_STATUSES) if (isFinal(status)) for (const to of PAYOUT_STATUSES) expect(canTransition(status, to)).toBe(false);
  });

  it('names the event of each arrival', () => {
    expect(PAYOUT_STATUSES.map(eventFor)).toEqual(['payout.created', 'payout.processing', 'payout.paid', 'payout.failed', 'payout.canceled']);
  });
});

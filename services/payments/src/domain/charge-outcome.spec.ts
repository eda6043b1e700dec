import { attemptOutcomeOf, creationEvents, statusAtCreation } from './charge-outcome';

describe('charge outcome → payment', () => {
  it('maps every charge state to the payment status at creation', () => {
    expect(statusAtCreation('pending')).toBe('pending');
    expect(statusAtCreation('paid')).toBe('succeeded');
    expect(statusAtCreation('failed')).toBe('failed');
    expect(statusAtCreation('canceled')).toBe('pending');
  });

  it('counts a decline as an answer, anything created as a success of the account', () => {
    expect(attemptOutcomeOf('failed')).toBe('declined');
    for (const state of ['pending', 'paid', 'canceled'] as const) expect(attemptOutcomeOf(state)).toBe('succeeded');
  });

  it('stores each creation with its events', () => {
    expect(creationEvents('pending')).toEqual(['payment.created']);
    expect(creationEvents('succeeded')).toEqual(['payment.created', 'payment.succeeded']);
    expect(creationEvents('failed')).toEqual(['payment.created', 'payment.failed']);
  });

  it('fails loudly on a state from outside the type (bad data)', () => {
    expect(() => statusAtCreation('refunded' as never)).toThrow('unhandled value: refunded');
  });
});

import { CARD_DECLINE_REASONS, declineReason, stripeDecline } from './card-declines';

describe('card declines', () => {
  it('maps Stripe decline codes to ours, preferring decline_code, unknown → card_declined', () => {
    expect(stripeDecline('generic_decline', 'card_declined')).toBe('card_declined');
    expect(stripeDecline('insufficient_funds', 'card_declined')).toBe('insufficient_funds');
    expect(stripeDecline(undefined, 'expired_card')).toBe('expired_card');
    expect(stripeDecline('something_new', 'also_new')).toBe('card_declined');
  });

  it('has a Portuguese reason that says what to do for every code', () => {
    for (const reason of Object.values(CARD_DECLINE_REASONS)) expect(reason).toMatch(/\.\s|\.$/);
    expect(declineReason('insufficient_funds')).toContain('insuficiente');
  });
});

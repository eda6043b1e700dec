import { failoverDecision, uncertainChargeMayMoveOn } from './failover-policy';

describe('failoverDecision', () => {
  it('moves on when the provider certainly did not charge', () => {
    for (const code of ['provider_unavailable', 'provider_rate_limited', 'provider_error', 'service_unavailable'] as const) {
      expect(failoverDecision(code, false)).toBe('next');
    }
  });

  it('treats timeouts as uncertain, including our own deadline', () => {
    expect(failoverDecision('provider_timeout', false)).toBe('uncertain');
    expect(failoverDecision('service_unavailable', true)).toBe('uncertain');
  });

  it('stops on a bank decline and on anything unknown', () => {
    expect(failoverDecision('card_declined', false)).toBe('stop');
    expect(failoverDecision('internal', false)).toBe('stop');
  });
});

describe('uncertainChargeMayMoveOn', () => {
  it('lets only an unseen Pix move on; a boleto or a card is resolved at its account first', () => {
    expect(uncertainChargeMayMoveOn('pix')).toBe(true);
    expect(uncertainChargeMayMoveOn('boleto')).toBe(false);
    expect(uncertainChargeMayMoveOn('card')).toBe(false);
  });
});

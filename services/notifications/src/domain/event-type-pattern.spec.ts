import { isValidEventPattern, matchesAnyPattern, matchesEventPattern } from './event-type-pattern';

describe('event type patterns', () => {
  it('accepts *, <resource>.* of a known resource and known types only', () => {
    for (const ok of ['*', 'payment.*', 'refund.*', 'payout.*', 'payment.succeeded', 'subaccount.created', 'webhook_endpoint.disabled']) {
      expect(isValidEventPattern(ok)).toBe(true);
    }
    for (const bad of ['', 'payment', 'payment.sucedido', 'pay*', 'internal.*', 'internal.provider_charge.updated', '*.succeeded', 'payment.**']) {
      expect(isValidEventPattern(bad)).toBe(false);
    }
  });

  it('matches wildcards by resource, never across resources', () => {
    expect(matchesEventPattern('*', 'refund.created')).toBe(true);
    expect(matchesEventPattern('payment.*', 'payment.succeeded')).toBe(true);
    expect(matchesEventPattern('payment.*', 'payout.paid')).toBe(false);
    expect(matchesEventPattern('payment.*', 'payment_link.created')).toBe(false);
    expect(matchesEventPattern('payment.succeeded', 'payment.succeeded')).toBe(true);
    expect(matchesEventPattern('payment.succeeded', 'payment.failed')).toBe(false);
    expect(matchesAnyPattern(['refund.*', 'payment.succeeded'], 'payment.failed')).toBe(false);
    expect(matchesAnyPattern(['refund.*', 'payment.succeeded'], 'refund.failed')).toBe(true);
  });
});

import { canTransition, isFinal, isSubscriptionStatus, statusesLeadingTo, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription-states';

const ALLOWED = new Set([
  'pending → active',
  'pending → refused',
  'pending → expired',
  'pending → canceled',
  'active → canceled',
  'active → expired',
]);

describe('subscription states', () => {
  it('lists the spec statuses', () => {
    expect(SUBSCRIPTION_STATUSES).toEqual(['pending', 'active', 'canceled', 'refused', 'expired']);
    expect(isSubscriptionStatus('active')).toBe(true);
    expect(isSubscriptionStatus('paused')).toBe(false);
  });

  const pairs = SUBSCRIPTION_STATUSES.flatMap((from) => SUBSCRIPTION_STATUSES.map((to) => [from, to] as [SubscriptionStatus, SubscriptionStatus]));
  it.each(pairs)('%s → %s is allowed only when listed', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from} → ${to}`));
  });

  it('canceled, refused and expired are final; nothing returns to pending', () => {
    expect(SUBSCRIPTION_STATUSES.filter(isFinal)).toEqual(['canceled', 'refused', 'expired']);
    expect(statusesLeadingTo('pending')).toEqual([]);
  });

  it('names the statuses a conditional update may start from', () => {
    expect(statusesLeadingTo('active')).toEqual(['pending']);
    expect(statusesLeadingTo('canceled')).toEqual(['pending', 'active']);
    expect(statusesLeadingTo('expired')).toEqual(['pending', 'active']);
    expect(statusesLeadingTo('refused')).toEqual(['pending']);
  });
});

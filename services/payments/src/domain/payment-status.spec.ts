import { canTransition, PAYMENT_STATUSES, statusesLeadingTo, TRANSITIONS } from './payment-status';

describe('payment state machine', () => {
  it('lets a pending payment be paid, fail or be canceled', () => {
    expect(canTransition('pending', 'succeeded')).toBe(true);
    expect(canTransition('pending', 'failed')).toBe(true);
    expect(canTransition('pending', 'canceled')).toBe(true);
  });

  it('never cancels or re-pays a paid payment', () => {
    expect(canTransition('succeeded', 'canceled')).toBe(false);
    expect(canTransition('succeeded', 'succeeded')).toBe(false);
    expect(canTransition('succeeded', 'refunded')).toBe(true);
  });

  it('keeps final states final', () => {
    for (const final of ['failed', 'canceled', 'refunded'] as const) expect(TRANSITIONS[final]).toEqual([]);
  });

  it('lists the sources of a transition for conditional updates', () => {
    expect(statusesLeadingTo('canceled').sort()).toEqual(['pending', 'processing', 'requires_method']);
    expect(statusesLeadingTo('succeeded').sort()).toEqual(['pending', 'processing']);
  });
});

/**
 * Every (from, to) pair, written out by hand from docs/payment-states.md rather than read from
 * TRANSITIONS, so a change to the table that the diagram does not share fails here.
 */
describe('payment state machine, transition by transition', () => {
  const allowed: Record<string, string[]> = {
    requires_method: ['pending', 'processing', 'failed', 'canceled'],
    pending: ['processing', 'succeeded', 'failed', 'canceled'],
    processing: ['succeeded', 'failed', 'canceled'],
    succeeded: ['partially_refunded', 'refunded'],
    partially_refunded: ['partially_refunded', 'refunded'],
    failed: [],
    canceled: [],
    refunded: [],
  };
  const pairs = PAYMENT_STATUSES.flatMap((from) => PAYMENT_STATUSES.map((to) => [from, to, allowed[from]!.includes(to)] as const));

  it('covers all 64 pairs', () => {
    expect(pairs).toHaveLength(64);
    expect(Object.keys(allowed).sort()).toEqual([...PAYMENT_STATUSES].sort());
  });

  it.each(pairs)('%s → %s allowed: %s', (from, to, expected) => {
    expect(canTransition(from, to)).toBe(expected);
    expect(statusesLeadingTo(to).includes(from)).toBe(expected);
  });

  it('never leads back into requires_method, and nothing leaves a final state', () => {
    expect(statusesLeadingTo('requires_method')).toEqual([]);
    for (const final of ['failed', 'canceled', 'refunded'] as const) {
      for (const to of PAYMENT_STATUSES) expect(canTransition(final, to)).toBe(false);
    }
  });
});

import { canTransition, statusesLeadingTo, TRANSITIONS } from './payment-status';

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

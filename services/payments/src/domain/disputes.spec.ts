import {
  ACTIVE_DISPUTE_STATUSES,
  canTransitionDispute,
  DISPUTE_STATUSES,
  disputableAmount,
  disputeKindFor,
  dueAtFor,
  sandboxOutcome,
} from './disputes';

describe('dispute rules', () => {
  it('MED for Pix, chargeback for card, nothing for boleto', () => {
    expect(disputeKindFor('pix')).toBe('med');
    expect(disputeKindFor('card')).toBe('chargeback');
    expect(disputeKindFor('boleto')).toBeUndefined();
  });

  it('gives 7 days to answer a MED and 10 to answer a chargeback', () => {
    const opened = new Date('2026-11-22T12:00:00Z');
    expect(dueAtFor('med', opened).toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(dueAtFor('chargeback', opened).toISOString()).toBe('2026-12-02T12:00:00.000Z');
  });

  it('allows only the transitions of the table', () => {
    const allowed = DISPUTE_STATUSES.flatMap((from) => DISPUTE_STATUSES.filter((to) => canTransitionDispute(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).toEqual(['open→under_review', 'open→won', 'open→lost', 'open→canceled', 'under_review→won', 'under_review→lost']);
    expect(ACTIVE_DISPUTE_STATUSES).toEqual(['open', 'under_review']);
  });

  it('decides sandbox disputes by the evidence text only when asked to', () => {
    expect(sandboxOutcome('Entregue. winning_evidence')).toBe('won');
    expect(sandboxOutcome('losing_evidence')).toBe('lost');
    expect(sandboxOutcome('Comprovante de entrega anexo.')).toBeUndefined();
  });

  it('never disputes more than was paid and not refunded', () => {
    expect(disputableAmount({ amount: 1000, amount_refunded: 0 })).toBe(1000);
    expect(disputableAmount({ amount: 1000, amount_refunded: 300 })).toBe(700);
    expect(disputableAmount({ amount: 1000, amount_refunded: 1000 })).toBe(0);
  });
});

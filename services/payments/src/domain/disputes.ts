/**
 * Disputes of paid payments: MED (Pix, Banco Central's Mecanismo Especial de Devolução) and card
 * chargebacks. One table of statuses and transitions; pure rules, no I/O.
 *
 *   open ──evidence──▶ under_review ──▶ won | lost
 *     │                                  ▲
 *     ├──due_at passes unanswered────────┘ (lost)
 *     ├──the provider decides unanswered──▶ won | lost (disputes opened at the provider)
 *     └──the payer's bank withdraws──▶ canceled
 */
import type { DisputeStatus } from '@orquestra/contracts';

// The statuses themselves are the public contract's (libs/contracts); the transitions are ours.
export { DISPUTE_STATUSES, type DisputeStatus } from '@orquestra/contracts';
export type DisputeKind = 'med' | 'chargeback';

export const DISPUTE_TRANSITIONS: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  // open → won: a provider can turn a notice down without our answer (Efí REJEITADA, Woovi REJECTED).
  open: ['under_review', 'won', 'lost', 'canceled'],
  under_review: ['won', 'lost'],
  won: [],
  lost: [],
  canceled: [],
};

export function canTransitionDispute(from: DisputeStatus, to: DisputeStatus): boolean {
  return DISPUTE_TRANSITIONS[from].includes(to);
}

/** Statuses still awaiting something: the merchant's answer (open) or the decision (under_review). */
export const ACTIVE_DISPUTE_STATUSES: readonly DisputeStatus[] = ['open', 'under_review'];

/** Pix disputes are MED; card disputes are chargebacks. Other methods cannot be disputed. */
export function disputeKindFor(method: string): DisputeKind | undefined {
  if (method === 'pix') return 'med';
  if (method === 'card') return 'chargeback';
  return undefined;
}

/**
 * Days the merchant has to answer. MED: the receiving institution must answer the infraction
 * notice within 7 days (Banco Central rules); chargebacks: we use 10 days, inside the usual
 * 7–21-day windows of the card networks as providers relay them.
 */
export const ANSWER_DAYS: Readonly<Record<DisputeKind, number>> = { med: 7, chargeback: 10 };

export function dueAtFor(kind: DisputeKind, openedAt: Date): Date {
  return new Date(openedAt.getTime() + ANSWER_DAYS[kind] * 24 * 60 * 60 * 1000);
}

export const DEFAULT_REASON: Readonly<Record<DisputeKind, string>> = {
  med: 'Notificação de infração (MED): o pagador contestou o Pix junto ao banco dele.',
  chargeback: 'Chargeback: o portador do cartão contestou a compra.',
};

/**
 * Sandbox decisions, as Stripe's test mode does it: evidence whose text contains
 * `winning_evidence` wins, `losing_evidence` loses, anything else stays under review (a real
 * decision comes from the provider). Never applied in live mode.
 */
export function sandboxOutcome(evidenceText: string): 'won' | 'lost' | undefined {
  if (evidenceText.includes('winning_evidence')) return 'won';
  if (evidenceText.includes('losing_evidence')) return 'lost';
  return undefined;
}

/** How long after evidence a sandbox decision is taken (as due work). */
export const SANDBOX_DECISION_DELAY_MS = 1_000;

/** The largest amount that can still be disputed: what was paid and not refunded. */
export function disputableAmount(payment: { amount: number; amount_refunded: number }): number {
  return Math.max(0, payment.amount - payment.amount_refunded);
}

/**
 * The id of a dispute opened at a provider: derived from (account, provider dispute id), so every
 * report of the same dispute (webhook redeliveries, polls, replicas at once) names one document and
 * the unique `_id` makes its creation happen once. Same shape as other ids: `dp_` + 26 characters
 * of Crockford base32 (from SHA-256 of the pair; `digest` is the caller's, keeping this pure).
 */
export function providerDisputeId(digest: Uint8Array): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === 26) break;
  }
  return `dp_${out}`;
}

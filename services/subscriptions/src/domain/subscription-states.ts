/**
 * The subscription state machine: one table, every transition checked against it (drawn in
 * docs/subscriptions.md, kept in step by subscription-states.doc.spec.ts). A subscription starts
 * `pending` while the payer has not approved the recurrence in the bank app; it mirrors Banco
 * Central's recurrence (CRIADA → APROVADA | REJEITADA | EXPIRADA | CANCELADA) and Asaas's
 * authorization (CREATED → ACTIVE | REFUSED | EXPIRED | CANCELLED).
 */

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'canceled', 'refused', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_TRANSITIONS: Readonly<Record<SubscriptionStatus, readonly SubscriptionStatus[]>> = {
  // approved (or simulated in test mode); the payer refused; the approval request lapsed; canceled.
  pending: ['active', 'refused', 'expired', 'canceled'],
  // canceled by the merchant or by the payer in the bank app; expired once end_date has passed.
  active: ['canceled', 'expired'],
  canceled: [],
  refused: [],
  expired: [],
};

export function canTransition(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return SUBSCRIPTION_TRANSITIONS[from].includes(to);
}

/** Statuses from which `to` can be reached: the filter of a conditional (race-safe) update. */
export function statusesLeadingTo(to: SubscriptionStatus): SubscriptionStatus[] {
  return SUBSCRIPTION_STATUSES.filter((from) => canTransition(from, to));
}

/** True for canceled, refused and expired: nothing is charged or approved any more. */
export function isFinal(status: SubscriptionStatus): boolean {
  return SUBSCRIPTION_TRANSITIONS[status].length === 0;
}

export function isSubscriptionStatus(value: string): value is SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);
}

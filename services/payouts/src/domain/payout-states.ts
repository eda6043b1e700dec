/**
 * The payout state machine (spec §2 Payout: pending, processing, paid, failed, canceled). One
 * table, every change checked against it; the store writes each as one conditional update whose
 * filter is the state read. `uncertain` is not a state: a pending payout whose transfer the
 * provider did not confirm (docs/payouts.md).
 */
export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'failed', 'canceled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_TRANSITIONS: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = {
  // the provider took it (processing), paid it at once, refused it, or dropped it
  pending: ['processing', 'paid', 'failed', 'canceled'],
  // the bank paid it, returned it, or the provider canceled it
  processing: ['paid', 'failed', 'canceled'],
  // the bank returned it after paying (Stripe sends payout.failed days after payout.paid)
  paid: ['failed'],
  failed: [],
  canceled: [],
};

export function canTransition(from: PayoutStatus, to: PayoutStatus): boolean {
  return PAYOUT_TRANSITIONS[from].includes(to);
}

export function isPayoutStatus(value: string): value is PayoutStatus {
  return (PAYOUT_STATUSES as readonly string[]).includes(value);
}

export function isFinal(status: PayoutStatus): boolean {
  return PAYOUT_TRANSITIONS[status].length === 0;
}

/** The public event of arriving in `status`. */
export function eventFor(status: PayoutStatus): string {
  return `payout.${status === 'pending' ? 'created' : status}`;
}

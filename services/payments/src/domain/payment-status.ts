/**
 * The payment state machine: one table, every transition checked against it (drawn in
 * docs/payment-states.md, kept in step by a test). A payment created with a method is stored once
 * its first charge exists, so it starts in `pending` (or `failed` on a decline); one created
 * without a method starts in `requires_method`, with no charge, until the buyer chooses.
 */
import { PAYMENT_STATUSES, type PaymentStatus } from '@orquestra/contracts';

// The statuses themselves are the public contract's (libs/contracts); the transitions are ours.
export { PAYMENT_STATUSES, type PaymentStatus } from '@orquestra/contracts';

export const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  requires_method: ['pending', 'processing', 'failed', 'canceled'],
  pending: ['processing', 'succeeded', 'failed', 'canceled'],
  processing: ['succeeded', 'failed', 'canceled'],
  succeeded: ['partially_refunded', 'refunded'],
  partially_refunded: ['partially_refunded', 'refunded'],
  failed: [],
  canceled: [],
  refunded: [],
};

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Statuses from which `to` can be reached: the filter of a conditional (race-safe) update. */
export function statusesLeadingTo(to: PaymentStatus): PaymentStatus[] {
  return (Object.keys(TRANSITIONS) as PaymentStatus[]).filter((from) => canTransition(from, to));
}

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

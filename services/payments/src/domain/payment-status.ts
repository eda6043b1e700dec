/**
 * The payment state machine: one table, every transition checked against it (drawn in
 * docs/payment-states.md, kept in step by a test). A payment created with a method is stored once
 * its first charge exists, so it starts in `pending` (or `failed` on a decline); one created
 * without a method starts in `requires_method`, with no charge, until the buyer chooses.
 */
export const PAYMENT_STATUSES = [
  'requires_method',
  'pending',
  'processing',
  'succeeded',
  'failed',
  'canceled',
  'refunded',
  'partially_refunded',
] as const;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

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

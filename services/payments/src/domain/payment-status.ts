/**
 * The payment state machine: one table, every transition checked against it. `creating` is
 * internal (the first provider call is under way) and never shown through the API.
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
export type StoredPaymentStatus = PaymentStatus | 'creating';

export const TRANSITIONS: Readonly<Record<StoredPaymentStatus, readonly PaymentStatus[]>> = {
  creating: ['requires_method', 'pending', 'processing', 'succeeded', 'failed'],
  requires_method: ['pending', 'processing', 'failed', 'canceled'],
  pending: ['processing', 'succeeded', 'failed', 'canceled'],
  processing: ['succeeded', 'failed', 'canceled'],
  succeeded: ['partially_refunded', 'refunded'],
  partially_refunded: ['partially_refunded', 'refunded'],
  failed: [],
  canceled: [],
  refunded: [],
};

export function canTransition(from: StoredPaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Statuses from which `to` can be reached: the filter of a conditional (race-safe) update. */
export function statusesLeadingTo(to: PaymentStatus): StoredPaymentStatus[] {
  return (Object.keys(TRANSITIONS) as StoredPaymentStatus[]).filter((from) => canTransition(from, to));
}

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

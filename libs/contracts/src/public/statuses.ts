/**
 * The statuses of the public objects, owned here so that the service that keeps them (its state
 * machine), the gateway (its response schema) and every consumer of events agree by construction.
 */

/** A payment's status (spec §2 Payment); the transitions between them are payments' state machine. */
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

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

/** A refund's status (spec §2 Refund): pending until the provider confirms; succeeded and failed are final. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A dispute's status (spec §2 Dispute); the transitions between them are payments' dispute rules. */
export const DISPUTE_STATUSES = ['open', 'under_review', 'won', 'lost', 'canceled'] as const;

export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

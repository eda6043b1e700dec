import { z } from 'zod';
import { REFUND_STATUSES } from '../public/statuses';

/**
 * Refund events (public): `refund.created` when a refund is asked for (or first seen at the
 * provider), `refund.succeeded` when the provider confirms the money went back, `refund.failed`
 * when it did not (the amount becomes refundable again). The payment's own change is a separate
 * event (`payment.partially_refunded` / `payment.refunded`) carrying the payment.
 */
export const REFUND_CREATED = 'refund.created' as const;
export const REFUND_SUCCEEDED = 'refund.succeeded' as const;
export const REFUND_FAILED = 'refund.failed' as const;
export const PAYMENT_PARTIALLY_REFUNDED = 'payment.partially_refunded' as const;
export const PAYMENT_REFUNDED = 'payment.refunded' as const;

export const REFUND_SOURCES = ['service', 'provider'] as const;

/** data.object of every `refund.*` event: the public refund object (spec §2). */
export const refundObjectSchema = z.object({
  id: z.string().startsWith('re_'),
  object: z.literal('refund'),
  payment_id: z.string(),
  amount: z.number().int().positive(),
  status: z.enum(REFUND_STATUSES),
  reason: z.string().nullable(),
  source: z.enum(REFUND_SOURCES),
  provider_refund_id: z.string().nullable(),
  failure_code: z.string().nullable(),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type RefundObject = z.infer<typeof refundObjectSchema>;

/** Which schema validates data.object of each refund-related event type. */
export const REFUND_EVENT_SCHEMAS = {
  [REFUND_CREATED]: refundObjectSchema,
  [REFUND_SUCCEEDED]: refundObjectSchema,
  [REFUND_FAILED]: refundObjectSchema,
} as const;

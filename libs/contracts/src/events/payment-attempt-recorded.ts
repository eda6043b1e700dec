import { z } from 'zod';

/** Published by payments for every provider attempt; routing keeps per-account health from it. */
export const PAYMENT_ATTEMPT_RECORDED = 'internal.payment_attempt.recorded' as const;

export const paymentAttemptRecordedSchema = z.object({
  payment_id: z.string(),
  provider_account_id: z.string(),
  provider: z.string(),
  outcome: z.enum(['succeeded', 'declined', 'failed', 'uncertain']),
  failure_code: z.string(),
  latency_ms: z.number().int().nonnegative(),
  at: z.string(),
});

export type PaymentAttemptRecorded = z.infer<typeof paymentAttemptRecordedSchema>;

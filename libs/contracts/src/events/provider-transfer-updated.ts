import { z } from 'zod';

/**
 * A payout's transfer changed at the provider (webhook or poll); providers → payouts. As for
 * charges, a webhook is only a hint: the providers service reads the transfer back and publishes
 * what the provider answers. Redelivery is harmless: payouts applies a status with a conditional
 * write that no-ops when it is already there.
 */
export const PROVIDER_TRANSFER_UPDATED = 'internal.provider_transfer.updated' as const;

export const TRANSFER_STATUSES = ['pending', 'processing', 'paid', 'failed', 'canceled'] as const;

export const providerTransferUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  provider_transfer_id: z.string().min(1),
  /** Our payout id, when the provider echoes it (or it was looked up). */
  payout_id: z.string().optional(),
  status: z.enum(TRANSFER_STATUSES),
  provider_status: z.string(),
  /** Cents. */
  amount: z.number().int().nonnegative(),
  fee: z.number().int().nonnegative().optional(),
  failure_code: z.string().optional(),
  failure_reason: z.string().optional(),
  paid_at: z.string().optional(),
  via: z.enum(['webhook', 'sync']),
});

export type ProviderTransferUpdated = z.infer<typeof providerTransferUpdatedSchema>;

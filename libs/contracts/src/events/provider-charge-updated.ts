import { z } from 'zod';

/** data.object of `internal.provider_charge.updated`: the charge as the provider reports it now. */
export const providerChargeUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  provider_payment_id: z.string(),
  status: z.enum(['pending', 'paid', 'failed', 'canceled']),
  amount_paid: z.number().int().nonnegative(),
  end_to_end_id: z.string().optional(),
  paid_at: z.string().optional(),
  provider_fee: z.number().int().nonnegative().optional(),
  /** What told us: a webhook or a sync. */
  via: z.enum(['webhook', 'sync']),
});

export type ProviderChargeUpdated = z.infer<typeof providerChargeUpdatedSchema>;

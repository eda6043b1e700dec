import { z } from 'zod';

/**
 * A subaccount's status changed at the provider (webhook read back, or sync); providers → payouts.
 * As for charges, the webhook is only a hint: the providers service reads the subaccount back and
 * publishes what the provider answers. Redelivery is harmless: payouts writes a status only when
 * it differs, in one conditional write.
 */
export const PROVIDER_SUBACCOUNT_UPDATED = 'internal.provider_subaccount.updated' as const;

export const providerSubaccountUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  /** The provider's id of the subaccount (Asaas account id, Pagar.me rp_…, Stripe acct_…). */
  provider_subaccount_id: z.string().min(1),
  /** Our subaccount id, when the provider echoes it (externalReference, code, metadata). */
  subaccount_id: z.string().optional(),
  status: z.enum(['pending', 'active', 'refused', 'blocked', 'inactive']),
  status_detail: z.string(),
  provider_status: z.string(),
  /** What a split part names at the provider now (ProviderSubaccount.split_target), when the report carries it. */
  split_target: z.string().optional(),
  via: z.enum(['webhook', 'sync']),
});

export type ProviderSubaccountUpdated = z.infer<typeof providerSubaccountUpdatedSchema>;

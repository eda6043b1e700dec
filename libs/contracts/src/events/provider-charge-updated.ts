import { z } from 'zod';
import { PROVIDER_CHARGE_STATUSES } from '../charge-status';
import { REFUND_STATUSES } from '../public/statuses';

/** One refund as the provider reports it (webhook or sync): the shape the event and the gRPC answers carry (provider-refund.ts converts). */
export const providerRefundReportSchema = z.object({
  provider_refund_id: z.string(),
  /**
   * The key we sent when we asked for it; absent for a refund made in the provider's dashboard or
   * one whose provider does not echo it. Providers published '' for absent before, and such
   * messages may still wait in the queue after an upgrade, so '' is read as absent.
   */
  refund_key: z
    .string()
    .optional()
    .transform((key) => key || undefined),
  amount: z.number().int().positive(),
  status: z.enum(REFUND_STATUSES),
  failure_code: z.string().optional(),
  failure_reason: z.string().optional(),
  reason: z.string().optional(),
  created_at: z.string().optional(),
});

export type ProviderRefundReport = z.infer<typeof providerRefundReportSchema>;

/** data.object of `internal.provider_charge.updated`: the charge as the provider reports it now. */
export const providerChargeUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  provider_payment_id: z.string(),
  status: z.enum(PROVIDER_CHARGE_STATUSES),
  amount_paid: z.number().int().nonnegative(),
  end_to_end_id: z.string().optional(),
  paid_at: z.string().optional(),
  provider_fee: z.number().int().nonnegative().optional(),
  /** Set with status `failed`: the normalized decline code and its Portuguese reason. */
  failure_code: z.string().optional(),
  failure_reason: z.string().optional(),
  /** Every refund the provider reports for the charge (ours and those made in its dashboard). */
  refunds: z.array(providerRefundReportSchema).optional(),
  /** What told us: a webhook or a sync. */
  via: z.enum(['webhook', 'sync']),
});

export type ProviderChargeUpdated = z.infer<typeof providerChargeUpdatedSchema>;

import { z } from 'zod';

/**
 * Pix Automático changes a provider reports (webhook or sync); providers → subscriptions and payments.
 * Like charges, a webhook is only a hint: the providers service reads the recurrence or the cycle
 * charge back at the provider and publishes what it answers. Redelivery is harmless: every consumer
 * applies a status with a conditional write that no-ops when it is already there.
 */
export const PROVIDER_RECURRENCE_UPDATED = 'internal.provider_recurrence.updated' as const;
export const PROVIDER_CYCLE_CHARGE_UPDATED = 'internal.provider_cycle_charge.updated' as const;

export const RECURRENCE_STATUSES = ['pending', 'active', 'canceled', 'refused', 'expired'] as const;
export const CYCLE_CHARGE_STATUSES = ['scheduled', 'paid', 'retrying', 'failed', 'canceled'] as const;

/** data.object of `internal.provider_recurrence.updated`: the recurrence as the provider has it now. */
export const providerRecurrenceUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  provider_recurrence_id: z.string().min(1),
  status: z.enum(RECURRENCE_STATUSES),
  /** The provider's own status word, for support and logs. */
  provider_status: z.string(),
  /** Providers that create their own cycles: the charges made so far. */
  cycle_charge_ids: z.array(z.string()).optional(),
  via: z.enum(['webhook', 'sync']),
});

export type ProviderRecurrenceUpdated = z.infer<typeof providerRecurrenceUpdatedSchema>;

/**
 * data.object of `internal.provider_cycle_charge.updated`: one cycle's charge as the provider has
 * it now. Payments moves the cycle payment (found by provider_payment_id = provider_charge_id);
 * subscriptions adopts a charge a provider made itself and schedules retries.
 */
export const providerCycleChargeUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  provider_recurrence_id: z.string(),
  provider_charge_id: z.string().min(1),
  status: z.enum(CYCLE_CHARGE_STATUSES),
  provider_status: z.string(),
  /** Cents. */
  amount: z.number().int().nonnegative(),
  /** YYYY-MM-DD */
  due_date: z.string(),
  failed_attempts: z.number().int().nonnegative(),
  next_attempt_date: z.string().optional(),
  end_to_end_id: z.string().optional(),
  via: z.enum(['webhook', 'sync']),
});

export type ProviderCycleChargeUpdated = z.infer<typeof providerCycleChargeUpdatedSchema>;

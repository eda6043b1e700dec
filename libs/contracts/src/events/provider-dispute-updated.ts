import { z } from 'zod';
import { DISPUTE_STATUSES } from '../public/statuses';

/** Provider-side dispute (MED infraction notice, chargeback) opened or changed; providers → payments. */
export const PROVIDER_DISPUTE_UPDATED = 'internal.provider_dispute.updated' as const;

/**
 * data.object of `internal.provider_dispute.updated`: a dispute as the provider reports it now.
 * Published by the providers service from webhooks (Woovi, Stripe) and polls (Efí `infracoes`); the
 * payments service finds the payment by the charge id or the Pix end-to-end id and creates or
 * moves its dispute. Redelivery is harmless: the dispute is keyed by (account, provider dispute id)
 * and a report that changes nothing is a no-op.
 */
export const providerDisputeUpdatedSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  /** The provider's id of the dispute (Efí idInfracao; Woovi: the Pix end-to-end id; Stripe dp_…). */
  provider_dispute_id: z.string().min(1),
  /** The disputed charge, when the provider names it. */
  provider_payment_id: z.string().optional(),
  /** The disputed Pix, when the provider names it (MED always does). */
  end_to_end_id: z.string().optional(),
  kind: z.enum(['med', 'chargeback']),
  status: z.enum(DISPUTE_STATUSES),
  /** The provider's own status, for support and logs. */
  provider_status: z.string(),
  /** Cents; absent when the provider does not say (then the payment's unrefunded amount). */
  amount: z.number().int().positive().optional(),
  reason: z.string().optional(),
  opened_at: z.string().optional(),
  /** When the answer is due at the provider, when it says. */
  answer_due_at: z.string().optional(),
  /** Whether the provider takes evidence for this dispute through its API. */
  accepts_evidence: z.boolean(),
  /** What told us: a webhook or a poll. */
  via: z.enum(['webhook', 'poll']),
});

export type ProviderDisputeUpdated = z.infer<typeof providerDisputeUpdatedSchema>;

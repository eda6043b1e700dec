import { modeFromName, toPublicPayout, type payouts } from '@orquestra/contracts';
import type { PayoutDoc } from './payout.model';

export function toProtoPayout(doc: PayoutDoc): payouts.Payout {
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    status: doc.status,
    amount: doc.amount,
    ...(doc.fee !== null ? { fee: doc.fee } : {}),
    provider: doc.provider,
    provider_account_id: doc.provider_account_id,
    provider_transfer_id: doc.provider_transfer_id,
    destination: {
      type: doc.destination.type,
      destination_id: doc.destination.destination_id,
      key_type: doc.destination.key_type,
      key: doc.destination.key_masked,
      label: doc.destination.label,
    },
    uncertain: doc.uncertain,
    description: doc.description,
    metadata: doc.metadata,
    ...(doc.failure_code ? { failure_code: doc.failure_code } : {}),
    ...(doc.failure_reason ? { failure_reason: doc.failure_reason } : {}),
    ...(doc.paid_at ? { paid_at: doc.paid_at.toISOString() } : {}),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    subaccount_id: doc.subaccount_id,
    source_key_id: doc.source_key_id,
    ...(doc.subaccount_id && doc.amount_requested !== null && doc.amount_requested !== undefined ? { amount_requested: doc.amount_requested } : {}),
    whole_balance: doc.whole_balance ?? false,
  };
}

/** What events carry (the gateway answers the same object, from the same function). */
export function publicPayoutObject(doc: PayoutDoc): Record<string, unknown> {
  return toPublicPayout(toProtoPayout(doc)) as unknown as Record<string, unknown>;
}

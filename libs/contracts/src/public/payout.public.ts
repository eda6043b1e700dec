import type { Payout } from '../generated/orquestra/payouts/v1/payouts';
import { modeName } from '../mode';

const orNull = (value: string | undefined): string | null => (value ? value : null);

/**
 * The public payout object (spec §2 Payout) from the gRPC message: the gateway answers with it and
 * the payouts service puts it in events' data.object. A Pix key destination shows its key masked;
 * a subaccount withdrawal shows subaccount_id, destination type subaccount, amount_requested and whole_balance.
 */
export function toPublicPayout(payout: Payout) {
  const destination = payout.destination;
  return {
    id: payout.id,
    object: 'payout' as const,
    mode: modeName(payout.mode),
    status: payout.status,
    amount: payout.amount,
    fee: payout.fee ?? null,
    currency: 'BRL' as const,
    provider: payout.provider,
    provider_account_id: payout.provider_account_id,
    ...(payout.subaccount_id ? { subaccount_id: payout.subaccount_id } : {}),
    // Withdrawals only: what was asked, and whether the provider took the whole balance instead
    // (amount is then what left).
    ...(payout.subaccount_id ? { amount_requested: payout.amount_requested ?? payout.amount, whole_balance: payout.whole_balance } : {}),
    destination:
      destination?.type === 'pix_key'
        ? { type: 'pix_key' as const, destination_id: destination.destination_id, key_type: destination.key_type, key: destination.key, label: destination.label }
        : { type: (destination?.type || 'account') as 'account' | 'subaccount' },
    uncertain: payout.uncertain,
    description: orNull(payout.description),
    metadata: payout.metadata,
    failure_code: payout.failure_code ?? null,
    failure_reason: payout.failure_reason ?? null,
    paid_at: payout.paid_at ?? null,
    created_at: payout.created_at,
    updated_at: payout.updated_at,
  };
}

export type PublicPayout = ReturnType<typeof toPublicPayout>;

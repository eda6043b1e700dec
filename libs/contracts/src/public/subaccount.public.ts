import type { Subaccount } from '../generated/orquestra/payouts/v1/payouts';
import { modeName } from '../mode';

/**
 * The public subaccount object (spec §2 Subaccount) from the gRPC message: the gateway answers with
 * it and the payouts service puts it in events' data.object. `details` carries only what the
 * payouts service already masked (bank account, login e-mail, wallet id); the issued credentials
 * of a subaccount never reach this message. The creating key's id stays internal.
 */
export function toPublicSubaccount(subaccount: Subaccount) {
  return {
    id: subaccount.id,
    object: 'subaccount' as const,
    mode: modeName(subaccount.mode),
    status: subaccount.status,
    status_detail: subaccount.status_detail || null,
    provider: subaccount.provider,
    provider_account_id: subaccount.provider_account_id,
    provider_subaccount_id: subaccount.provider_subaccount_id || null,
    type: subaccount.type,
    name: subaccount.name,
    document: subaccount.document,
    email: subaccount.email || null,
    details: subaccount.details,
    metadata: subaccount.metadata,
    created_at: subaccount.created_at,
    updated_at: subaccount.updated_at,
  };
}

export type PublicSubaccount = ReturnType<typeof toPublicSubaccount>;

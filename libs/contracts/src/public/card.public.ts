import type { Card } from '../generated/orquestra/vault/v1/vault';
import { modeName } from '../mode';

/**
 * The public saved card object (spec §2 Saved card) from the vault's gRPC message: the gateway
 * answers with it and the vault puts it in card.created / card.deleted events' data.object. The
 * message never holds the number or the security code; the creating key's id stays internal.
 */
export function toPublicCard(card: Card) {
  return {
    id: card.id,
    object: 'card' as const,
    mode: modeName(card.mode),
    brand: card.brand,
    last4: card.last4,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    holder_name: card.holder_name,
    fingerprint: card.fingerprint,
    customer: card.customer_id,
    cvc_available_until: card.cvc_available_until || null,
    metadata: card.metadata,
    created_at: card.created_at,
  };
}

export type PublicCard = ReturnType<typeof toPublicCard>;

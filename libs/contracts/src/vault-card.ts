/**
 * A card from the vault, as a charge names it: a saved card (`card.id`, card_…) or a card fields
 * token (`tok_…`), as opposed to an account's own card token (Stripe pm_…, which works only there).
 * One definition for payments (routing, keys) and providers (which reads it from the vault).
 */
export function isVaultToken(token: string | undefined): boolean {
  return typeof token === 'string' && token.startsWith('tok_');
}

export function isVaultCard(card: { token?: string; id?: string } | undefined): boolean {
  return Boolean(card?.id) || isVaultToken(card?.token);
}

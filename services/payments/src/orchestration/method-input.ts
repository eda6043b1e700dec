import { isVaultCard, isVaultToken, type payments } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';

const METHODS = ['pix', 'boleto', 'card'];


/**
 * A card payment without any card (no token, no saved card) is completed on the provider's hosted
 * checkout (the buyer types the card on the provider's page, `next_action.type = redirect`):
 * routing then considers only accounts whose provider has one.
 */
export function needsHostedCheckout(method: string, card: { token?: string; id?: string } | undefined): boolean {
  return method === 'card' && !card?.token && !card?.id;
}

/** What routing is told about a vault card (RouteRequest.vault_card / vault_card_without_cvc). */
export function vaultCardRoute(card: { token?: string; id?: string; without_cvc?: boolean } | undefined): { vault_card: boolean; vault_card_without_cvc: boolean } {
  const vault = isVaultCard(card);
  return { vault_card: vault, vault_card_without_cvc: vault && card?.without_cvc === true };
}

/**
 * What a payment with a method needs beyond the body's shape (the gateway checked that):
 * - a card payment with an account's own `card.token` (minted by one account's card form and
 *   valid only there) names that account with `provider_account_id` (a token is never tried at a
 *   second account: another account would refuse it, or worse, charge a same-named token of its own);
 * - a card from the vault (`card.id`, a saved card, or a card fields `tok_…`) may go to any account
 *   whose provider charges vault cards (routing picks them); charging a saved card needs a full
 *   key (spec §5.4);
 * - a card payment without a card goes to a hosted checkout (routing checks one exists and
 *   otherwise answers `parameter_missing` on `card.token`).
 * The customer data each method needs (boleto: document and address) is routing's to check, per
 * account (bot rule 5), so the error can name the missing datum.
 */
export function assertMethodInput(request: payments.CreatePaymentRequest): void {
  if (!request.method) return;
  if (!METHODS.includes(request.method)) {
    throw new AppError('method_not_available', { param: 'method', message: `O método ${request.method} não existe. Use pix, boleto ou card.` });
  }
  if (request.method !== 'card') return;
  const card = request.card;
  if (card?.id && card.token) {
    throw new AppError('parameter_invalid', { param: 'card', message: 'Envie card.id (cartão salvo) ou card.token, não os dois.' });
  }
  if (card?.id && request.caller?.restricted) {
    throw new AppError('restricted_key', { param: 'card.id', message: 'Chaves restritas não podem cobrar um cartão salvo (card.id). Use uma chave completa.' });
  }
  if (card && (card.installments < 0 || card.installments > 12)) {
    throw new AppError('parameter_invalid', { param: 'card.installments', message: 'card.installments deve ser um número inteiro de 1 a 12.' });
  }
  if (!card?.token || isVaultToken(card.token)) return;
  if (!request.provider_account_id) {
    throw new AppError('parameter_missing', {
      param: 'provider_account_id',
      message: 'Informe provider_account_id: o card.token só funciona na conta do provedor que o gerou.',
    });
  }
}

import type { payments } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';

const METHODS = ['pix', 'boleto', 'card'];

/**
 * A card payment without `card.token` is completed on the provider's hosted checkout (the buyer
 * types the card on the provider's page, `next_action.type = redirect`): routing then considers
 * only accounts whose provider has one.
 */
export function needsHostedCheckout(method: string, card: { token?: string } | undefined): boolean {
  return method === 'card' && !card?.token;
}

/**
 * What a payment with a method needs beyond the body's shape (the gateway checked that):
 * - a card payment with `card.token` (minted by one account's card form and valid only there)
 *   names that account with `provider_account_id` (a token is never tried at a second account:
 *   another account would refuse it, or worse, charge a same-named token of its own);
 * - a card payment without `card.token` goes to a hosted checkout (routing checks one exists and
 *   otherwise answers `parameter_missing` on `card.token`);
 * - saved cards (`card.id`) need the card vault, which this version does not have.
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
  if (card?.id) {
    throw new AppError('method_not_available', {
      param: 'card.id',
      message: 'Cartões salvos (card.id) ainda não estão disponíveis nesta versão. Envie card.token, gerado pelo formulário de cartão da conta.',
    });
  }
  if (card && (card.installments < 0 || card.installments > 12)) {
    throw new AppError('parameter_invalid', { param: 'card.installments', message: 'card.installments deve ser um número inteiro de 1 a 12.' });
  }
  if (!card?.token) return;
  if (!request.provider_account_id) {
    throw new AppError('parameter_missing', {
      param: 'provider_account_id',
      message: 'Informe provider_account_id: o card.token só funciona na conta do provedor que o gerou.',
    });
  }
}

import type { common } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { CreatePaymentInput } from '../schemas/create-payment.schema';

/**
 * Checks on a valid CreatePayment body that depend on the caller. A restricted key cannot split
 * (§5.4); payments checks the splits' subaccounts, parts and fee room. `card` goes on to payments, which
 * checks the rest (an account's own token needs provider_account_id; a saved card `card.id` needs a
 * full key, checked here first). A card payment without any card is completed on a provider's
 * hosted checkout.
 */
export function assertCreatePaymentAllowed(input: CreatePaymentInput, caller: common.Caller): void {
  if (input.splits && caller.restricted) {
    throw new AppError('restricted_key', {
      param: 'splits',
      message: 'Chaves restritas não podem criar divisões de pagamento (splits). Use uma chave completa.',
    });
  }
  if (input.card) {
    if (input.method !== 'card') {
      throw new AppError('parameter_invalid', {
        param: 'card',
        message: 'O campo card só pode ser enviado com method card. Remova card ou use method card.',
      });
    }
    if (input.card.id !== undefined && caller.restricted) {
      throw new AppError('restricted_key', {
        param: 'card.id',
        message: 'Chaves restritas não podem cobrar um cartão salvo (card.id). Use uma chave completa.',
      });
    }
  }
}

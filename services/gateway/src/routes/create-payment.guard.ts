import type { common } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { CreatePaymentInput } from '../schemas/create-payment.schema';

/**
 * Checks on a valid CreatePayment body that depend on the caller or on what the backend can carry.
 * `splits` is accepted in its spec shape by the schema, but the CreatePayment RPC has no field for
 * it yet: forwarding without it would create a different payment than asked, so it is refused
 * here, with the restricted-key rule (§5.4) checked first. `card` goes on to payments, which
 * checks the rest (a token needs provider_account_id; saved cards are not available yet). A card
 * payment without `card` (or without `card.token`) is completed on a provider's hosted checkout.
 */
export function assertCreatePaymentAllowed(input: CreatePaymentInput, caller: common.Caller): void {
  if (input.splits) {
    if (caller.restricted) {
      throw new AppError('restricted_key', {
        param: 'splits',
        message: 'Chaves restritas não podem criar divisões de pagamento (splits). Use uma chave completa.',
      });
    }
    throw new AppError('parameter_invalid', {
      param: 'splits',
      message: 'A divisão de pagamentos (splits) ainda não está disponível. Remova o campo splits.',
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

/**
 * Card at Asaas goes through its hosted invoice page only: the charge is created with
 * `billingType: CREDIT_CARD` and no card data, and the buyer types the card at `invoiceUrl`.
 * A `card.token` from another account's card form means nothing here (an Asaas `creditCardToken`
 * is tied to an Asaas customer and is not minted by Orquestra), so it is refused on the field.
 */
import { ProviderError, type CreateChargeInput } from '../provider-adapter';

export function assertHostedCard(input: CreateChargeInput): void {
  if (input.card?.token) {
    throw new ProviderError('rejected', 'provider_rejected', 'asaas create: card tokens are not accepted (hosted invoice only)', 400, {
      name: 'card.token',
      publicMessage: 'Contas Asaas recebem cartão só pelo checkout hospedado: envie o pagamento sem card.token e leve o comprador ao link de next_action.url.',
    });
  }
}

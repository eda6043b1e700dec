/**
 * Cards at Pagar.me come from the vault only: the order's payment is `credit_card{installments,
 * card{number, holder_name, exp_month, exp_year, cvv, billing_address?}}` (pagarme.transformers.ts
 * creditCardPayment), authorized and captured when the order is created: the order answers `paid`,
 * or `failed` with the acquirer's return code (pagarmeCardDecline). Pagar.me's own card tokens
 * (tokenizecard.js, single-use, 60 s) are not minted by Orquestra, so `card.token` is refused on
 * the field.
 *
 * The security code: Pagar.me's card object takes `cvv` and its card-not-present authorizations
 * are made with it; a card sent in full without one is not something psp-apis.md says Pagar.me
 * accepts, so the class says `vaultCards.needsCvc: true` (routing keeps cards whose code the vault
 * deleted away from Pagar.me) and a card without one is refused here before any call.
 *
 * The number and cvv go only into the JSON body. A 422 about the card names the fields
 * (`order.payments[0].credit_card.card.number`), never their values (errorMessage reads field
 * names and messages, not the echoed request).
 */
import { ProviderError, type CreateChargeInput } from '../provider-adapter';
import { declineReason } from '../../domain/card-declines';
import { errorMessage } from './pagarme.errors';

/** Refuses, before any request, a card Pagar.me cannot take from us. */
export function assertVaultCard(input: CreateChargeInput): void {
  if (input.method !== 'card') return;
  if (!input.card?.vaultCard) {
    throw new ProviderError('rejected', 'provider_rejected', 'pagarme create: card tokens are not accepted (vault cards only)', 400, {
      name: 'card.token',
      publicMessage: 'Contas Pagar.me recebem cartão pelo cofre: envie card.id (cartão salvo) ou o card.token do formulário de cartão da plataforma.',
    });
  }
  if (!input.card.vaultCard.cvc) {
    throw new ProviderError('rejected', 'provider_rejected', 'pagarme create: vault card without its security code', 400, {
      name: 'card',
      publicMessage: 'O Pagar.me exige o código de segurança do cartão, que o cofre já apagou: peça ao comprador para informar o cartão de novo.',
    });
  }
}

/**
 * A 422 whose errors are about the card (Pagar.me checks number, expiry and cvv before
 * authorizing): a refusal on the `card` field with a Portuguese reason; nothing was charged.
 */
export function cardFieldRefusal(status: number, body: unknown): ProviderError | undefined {
  if (status !== 422) return undefined;
  const errors = (body as { errors?: Record<string, unknown> } | undefined)?.errors;
  const fields = errors && typeof errors === 'object' ? Object.keys(errors).filter((key) => key.includes('.credit_card')) : [];
  if (fields.length === 0) return undefined;
  const expired = fields.some((key) => /exp_|credit_card\.card$/.test(key));
  const publicMessage = expired ? declineReason('expired_card') : 'O Pagar.me recusou os dados do cartão (número, validade ou código de segurança). Peça ao comprador para conferir o cartão ou usar outro.';
  return new ProviderError('rejected', 'provider_rejected', `pagarme create order: HTTP 422: ${errorMessage(body) ?? 'card refused'}`, status, { name: 'card', publicMessage });
}

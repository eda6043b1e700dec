/**
 * A card from the vault, charged at Stripe: `POST /v1/payment_methods` (`type=card`, `card[number]`,
 * `card[exp_month]`, `card[exp_year]`, `card[cvc]` when the vault still has it,
 * `billing_details[name]`) makes it a PaymentMethod of this account, which the card PaymentIntent
 * then confirms (stripe.transformers.ts buildCardIntentParams). Stripe charges a card without its
 * CVC, so the class says `vaultCards.needsCvc: false`.
 *
 * Idempotent: the PaymentMethod's Idempotency-Key is derived from the charge's (`<key>:pm`), so a
 * repeat gets the same `pm_…` back and the PaymentIntent's own key replays the same charge.
 *
 * The number and CVC go only into the form body; nothing here puts them in an error: Stripe's
 * card errors name the field (`param card[number]`) and never echo its value.
 */
import type { HttpAnswer } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import { ProviderError, type VaultCardInput } from '../provider-adapter';
import { declineReason, stripeDecline, type CardDeclineCode } from '../../domain/card-declines';
import type { FormValue } from './stripe.form-encoding';
import { providerErrorFor } from './stripe.errors';
import type { StripeErrorBody } from './stripe.transformers';

type StripeApi = (method: 'POST', path: string, purpose: RequestPurpose, params: Record<string, FormValue>, key: string) => Promise<HttpAnswer>;

/** Stripe's card_error codes on PaymentMethod creation (docs.stripe.com/error-codes) → our decline code. */
const CREATE_CARD_ERRORS: Readonly<Record<string, CardDeclineCode>> = {
  invalid_expiry_month: 'expired_card',
  invalid_expiry_year: 'expired_card',
  expired_card: 'expired_card',
  invalid_cvc: 'incorrect_cvc',
  incorrect_cvc: 'incorrect_cvc',
};

/** The PaymentMethod's form body. */
export function vaultPaymentMethodParams(card: VaultCardInput): Record<string, FormValue> {
  const name = card.holderName.trim();
  return {
    type: 'card',
    card: { number: card.number, exp_month: card.expMonth, exp_year: card.expYear, ...(card.cvc ? { cvc: card.cvc } : {}) },
    ...(name ? { billing_details: { name } } : {}),
  };
}

/**
 * Creates the PaymentMethod and answers its `pm_…`. A card Stripe refuses at creation (402
 * `card_error`: wrong number, past expiry, malformed CVC) throws ProviderError `rejected` on the
 * `card` field with the decline's Portuguese reason; nothing was charged.
 */
export async function createVaultPaymentMethod(api: StripeApi, card: VaultCardInput, idempotencyKey: string): Promise<string> {
  const answer = await api('POST', '/v1/payment_methods', { operation: 'prepare' }, vaultPaymentMethodParams(card), `${idempotencyKey}:pm`);
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (answer.status === 200 && typeof id === 'string' && id.startsWith('pm_')) return id;
  const error = (answer.body as Partial<StripeErrorBody> | undefined)?.error;
  if (answer.status === 402 && error?.type === 'card_error') {
    const code = CREATE_CARD_ERRORS[error.code ?? ''] ?? stripeDecline(error.decline_code, error.code);
    throw new ProviderError('rejected', 'provider_rejected', `stripe create payment method: HTTP 402 card_error ${error.code ?? ''}`.trim(), 402, {
      name: 'card',
      publicMessage: declineReason(code),
    });
  }
  throw providerErrorFor(answer.status, answer.body, 'create payment method');
}

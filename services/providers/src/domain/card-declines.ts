/**
 * Card declines, the same for every provider: the normalized `failure_code` a failed card payment
 * carries, and the Portuguese `failure_reason` a merchant can show the buyer (what to do next).
 * Each adapter maps its own decline codes onto these; anything unknown is `card_declined`.
 */
export type CardDeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'lost_card'
  | 'stolen_card'
  | 'processing_error'
  | 'invalid_card_token';

export const CARD_DECLINE_REASONS: Readonly<Record<CardDeclineCode, string>> = {
  card_declined: 'O banco emissor recusou o cartão. Peça ao comprador outro cartão ou outro método de pagamento.',
  insufficient_funds: 'Saldo ou limite insuficiente no cartão. Peça ao comprador outro cartão ou outro método de pagamento.',
  expired_card: 'O cartão está vencido. Peça ao comprador um cartão válido.',
  incorrect_cvc: 'O código de segurança (CVV) está incorreto. Peça ao comprador para conferir e tentar de novo.',
  lost_card: 'O cartão foi recusado pelo banco emissor. Peça ao comprador outro cartão ou outro método de pagamento.',
  stolen_card: 'O cartão foi recusado pelo banco emissor. Peça ao comprador outro cartão ou outro método de pagamento.',
  processing_error: 'Houve um erro ao processar o cartão. Tente de novo em alguns minutos.',
  invalid_card_token: 'O token do cartão não é válido nesta conta. Gere um novo token no formulário de cartão da conta.',
};

/** Stripe `decline_code` / `code` values (docs.stripe.com/declines/codes) → ours. */
const STRIPE_DECLINES: Readonly<Record<string, CardDeclineCode>> = {
  generic_decline: 'card_declined',
  card_declined: 'card_declined',
  do_not_honor: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  lost_card: 'lost_card',
  stolen_card: 'stolen_card',
  pickup_card: 'stolen_card',
  processing_error: 'processing_error',
};

/** The normalized decline for Stripe's `decline_code` (preferred) or `code`. */
export function stripeDecline(declineCode: string | undefined, code: string | undefined): CardDeclineCode {
  return STRIPE_DECLINES[declineCode ?? ''] ?? STRIPE_DECLINES[code ?? ''] ?? 'card_declined';
}

/**
 * Asaas reports a card refused on its invoice page by webhook event only (docs.asaas.com "Eventos
 * para cobranças"): `PAYMENT_CREDIT_CARD_CAPTURE_REFUSED` ("falha no pagamento de cartão") and
 * `PAYMENT_REPROVED_BY_RISK_ANALYSIS` (reproved by Asaas's manual risk analysis). Neither carries
 * the issuer's reason, so both are `card_declined`. Any other event is not a decline.
 */
const ASAAS_DECLINE_EVENTS: Readonly<Record<string, CardDeclineCode>> = {
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: 'card_declined',
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: 'card_declined',
};

export function asaasCardDecline(event: string): CardDeclineCode | undefined {
  return ASAAS_DECLINE_EVENTS[event];
}

export function declineReason(code: CardDeclineCode): string {
  return CARD_DECLINE_REASONS[code];
}

/**
 * Error bodies as Mercado Pago writes them: `{message, error, status, cause: [{code, description,
 * data}]}` (official SDKs parse exactly these fields; see mercadopago/sdk-nodejs src/utils/errors).
 * Codes marked "documented" come from the API reference / error tables; the others are the
 * emulator's best guess and say so.
 */
import type { ProviderAnswers } from '../../kit';

export interface MpCause {
  code: number | string;
  description: string;
  data: string | null;
}

export interface MpErrorBody {
  message: string;
  error: string;
  status: number;
  cause: MpCause[];
}

export class MpApiError extends Error {
  constructor(readonly body: MpErrorBody) {
    super(body.message);
  }

  get status(): number {
    return this.body.status;
  }
}

function mp(status: number, error: string, message: string, code?: number | string): MpApiError {
  return new MpApiError({ message, error, status, cause: code === undefined ? [] : [{ code, description: message, data: null }] });
}

export const mpErrors = {
  // Documented (issue reports of the live API): 401 with cause code 5.
  missingToken: () => mp(401, 'unauthorized', 'Must provide your access_token to proceed', 5),
  // Unconfirmed wording for a token Mercado Pago does not know.
  invalidToken: () => mp(401, 'unauthorized', 'invalid access token'),
  // Documented: GET /v1/payments/{id} → 404, cause 2000.
  paymentNotFound: () => mp(404, 'not_found', 'Payment not found', 2000),
  // Documented: error 4292 when the header is missing on POST /v1/payments.
  idempotencyKeyMissing: () => mp(400, 'bad_request', "Header X-Idempotency-Key can't be null", 4292),
  // Documented code (4037); wording of the live API may differ.
  invalidAmount: () => mp(400, 'bad_request', 'Invalid transaction_amount', 4037),
  // Documented code 4050 "payer.email must be a valid email"; required for Pix.
  invalidPayerEmail: () => mp(400, 'bad_request', 'payer.email must be a valid email', 4050),
  // Documented code 4020 (wording "notificaction_url attribute must be url valid" in live answers).
  invalidNotificationUrl: () => mp(400, 'bad_request', 'notificaction_url attribute must be url valid', 4020),
  // Documented code 2018: cancellation only from pending, in_process or authorized (wording unconfirmed).
  notCancellable: () => mp(400, 'bad_request', 'The action requested is not valid for the current payment state', 2018),
  badRequest: (message: string) => mp(400, 'bad_request', message),
  // Boleto (documented: payer identification and full address required); codes unconfirmed.
  payerIdentificationRequired: () => mp(400, 'bad_request', 'payer.identification is required for bolbradesco', 4033),
  payerAddressRequired: (field: string) => mp(400, 'bad_request', `payer.${field.replace(/^payer\./, '')} is required for bolbradesco`, 4034),
  // Card tokens (`POST /v1/card_tokens`): codes from the card-token error table (E301 card number,
  // E302 security code, 316 holder name, 325/326 month/year); wording unconfirmed. Never quote the card.
  invalidCardNumber: () => mp(400, 'bad_request', 'invalid parameter card_number', 'E301'),
  invalidSecurityCode: () => mp(400, 'bad_request', 'invalid parameter security_code', 'E302'),
  invalidCardholderName: () => mp(400, 'bad_request', 'invalid parameter cardholder.name', 316),
  invalidExpirationMonth: () => mp(400, 'bad_request', 'invalid parameter expiration_month', 325),
  invalidExpirationYear: () => mp(400, 'bad_request', 'invalid parameter expiration_year', 326),
  // Documented code 2006 "Card Token not found": unknown, used already, or another account's token.
  cardTokenNotFound: () => mp(400, 'bad_request', 'Card Token not found', 2006),
  cardTokenRequired: () => mp(400, 'bad_request', "token attribute can't be null for credit card payments", 2006),
  // Documented refund codes (Create refund reference): 2063 state, 4040 / 4041 amount, 2032 not found.
  refundInvalidState: () => mp(400, 'bad_request', 'The action requested is not valid for the current payment state', 2063),
  refundAmountNotPositive: () => mp(400, 'bad_request', 'amount attribute must be positive', 4040),
  refundAmountNotNumeric: () => mp(400, 'bad_request', 'amount attribute must be numeric', 4041),
  refundNotFound: () => mp(404, 'not_found', 'Refund not found', 2032),
  // Unconfirmed wording: more than what is left to refund (the live API answers a 400).
  refundAmountExceeded: () => mp(400, 'bad_request', 'Invalid refund amount: it exceeds the amount available to refund'),
  // Emulator-only: a route it does not implement.
  routeNotFound: () => mp(404, 'not_found', 'Resource not found (not implemented by the emulator)'),
  // Unconfirmed bodies for the injected faults; statuses are the documented ones.
  internal: () => mp(500, 'internal_error', 'Internal server error'),
  unavailable: () => mp(503, 'service_unavailable', 'Service unavailable'),
  tooManyRequests: () => mp(429, 'too_many_requests', 'Too many requests'),
};

/** How Mercado Pago answers its own errors, injected faults, bad bodies and unknown paths (kit/api-port.ts). */
export const mpAnswers: ProviderAnswers = {
  known: (err) => (err instanceof MpApiError ? err : undefined),
  badBody: () => mpErrors.badRequest('Invalid JSON body'),
  notFound: () => mpErrors.routeNotFound(),
  internal: () => mpErrors.internal(),
  unavailable: () => mpErrors.unavailable(),
  rateLimited: () => mpErrors.tooManyRequests(),
};

/**
 * Error bodies as Pagar.me API v5 writes them: `{"message": …}`, plus `errors` (field path →
 * messages) and `request` on 422 validation failures (docs.pagar.me/reference/erros-1). The 401
 * text is the one integrators report (pagarme/pagarme-js#348). 429 and 5xx bodies are not
 * documented: the same `{message}` shape is used.
 */
import type { ProviderAnswers } from '../../kit';

export interface PagarmeErrorBody {
  message: string;
  errors?: Record<string, string[]>;
  request?: unknown;
}

export class PagarmeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: PagarmeErrorBody,
  ) {
    super(body.message);
  }
}

const error = (status: number, message: string) => new PagarmeApiError(status, { message });

export const pagarmeErrors = {
  unauthorized: () => error(401, 'Authorization has been denied for this request.'),
  orderNotFound: () => error(404, 'Order not found.'),
  // Documented on docs.pagar.me/reference/erros-1 for an order whose customer_id is unknown.
  customerNotFound: () => error(404, 'Customer not found.'),
  chargeNotFound: () => error(404, 'Charge not found.'),
  transactionNotFound: () => error(404, 'Transaction not found.'),
  // Emulator-only: an endpoint it does not implement.
  routeNotFound: () => error(404, 'No HTTP resource was found that matches the request URI.'),
  /** 412: valid parameters, but the operation cannot be done on the resource as it is. */
  chargeNotCancelable: (status: string) => error(412, `Charge can not be canceled. Current status: ${status}.`),
  invalid: (errors: Record<string, string[]>, request: unknown) =>
    new PagarmeApiError(422, { message: 'The request is invalid.', errors, request }),
  badJson: () => error(400, 'The request is invalid.'),
  tooManyRequests: () => error(429, 'Too many requests.'),
  internal: () => error(500, 'An error has occurred.'),
  unavailable: () => error(503, 'The service is unavailable.'),
};

/** How Pagar.me answers its own errors, injected faults, bad bodies and unknown paths (kit/api-port.ts). */
export const pagarmeAnswers: ProviderAnswers = {
  known: (err) => (err instanceof PagarmeApiError ? err : undefined),
  badBody: () => pagarmeErrors.badJson(),
  notFound: () => pagarmeErrors.routeNotFound(),
  internal: () => pagarmeErrors.internal(),
  unavailable: () => pagarmeErrors.unavailable(),
  rateLimited: () => pagarmeErrors.tooManyRequests(),
};

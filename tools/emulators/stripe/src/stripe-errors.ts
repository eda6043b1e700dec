/**
 * Error answers as Stripe writes them: `{"error": {type, code?, decline_code?, message, param?,
 * doc_url?, payment_intent?, …}}` (docs.stripe.com/api/errors). The documented `type`s are
 * `api_error`, `card_error`, `idempotency_error` and `invalid_request_error`: a bad or missing API
 * key is a 401 `invalid_request_error` without `code`, and a 429 is `invalid_request_error` with
 * `code: "rate_limit"` (SDKs also know the legacy `authentication_error`/`rate_limit_error`).
 */
import type { ProviderAnswers } from '../../kit';

export interface StripeErrorObject {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
}

/** `res.locals` flag: the request ended in an error after its endpoint began executing (its answer is kept for idempotent replays). */
export const REPLAYABLE_ERROR = 'replayableError';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: StripeErrorObject,
    /** Whether an idempotent request that ended in this error keeps the answer (endpoint had begun executing). */
    readonly replayable = false,
  ) {
    super(error.message);
  }

  get body(): { error: StripeErrorObject } {
    return { error: this.error };
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;

const invalid = (status: number, message: string, extra: Partial<StripeErrorObject> = {}, replayable = false) =>
  new StripeApiError(status, { type: 'invalid_request_error', message, ...(extra.code ? { doc_url: docUrl(extra.code) } : {}), ...extra }, replayable);

/** `sk_test_••••••••1234`: Stripe echoes only the key's prefix and last four characters. */
export function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(4, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

export const stripeErrors = {
  missingApiKey: () =>
    invalid(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    ),
  invalidApiKey: (key: string) => invalid(401, `Invalid API Key provided: ${maskKey(key)}`),
  unrecognizedUrl: (method: string, path: string) =>
    invalid(404, `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`),
  resourceMissing: (objectName: string, id: string, param: string) =>
    invalid(404, `No such ${objectName}: '${id}'`, { code: 'resource_missing', param }),
  parameterMissing: (param: string) => invalid(400, `Missing required param: ${param}.`, { code: 'parameter_missing', param }),
  parameterUnknown: (param: string) =>
    invalid(400, `Received unknown parameter: ${param}`, { code: 'parameter_unknown', param }),
  invalidInteger: (param: string, value: string) => invalid(400, `Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param }),
  invalidValue: (param: string, message: string) => invalid(400, message, { code: 'parameter_invalid_string', param }),
  amountTooSmall: () => invalid(400, 'Amount must be at least R$0.50 brl', { code: 'amount_too_small', param: 'amount' }),
  amountTooLarge: () => invalid(400, 'Amount must be no more than R$999,999.99 brl', { code: 'amount_too_large', param: 'amount' }),
  paymentMethodNotFound: (id: string) =>
    invalid(400, `No such PaymentMethod: '${id}'`, { code: 'resource_missing', param: 'payment_method' }),
  unexpectedState: (message: string, paymentIntent: unknown) =>
    invalid(400, message, { code: 'payment_intent_unexpected_state', payment_intent: paymentIntent }, true),
  idempotencyMismatch: (key: string) =>
    new StripeApiError(400, {
      type: 'idempotency_error',
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    }),
  idempotencyKeyInUse: () =>
    invalid(
      409,
      'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): Please try again later.',
      { code: 'idempotency_key_in_use' },
    ),
  idempotencyKeyTooLong: () => invalid(400, 'Idempotency-Key must be at most 255 characters long.', { param: 'Idempotency-Key' }),
  cardDeclined: (detail: { code: string; declineCode?: string; message: string; charge: string; paymentIntent: unknown; paymentMethod: unknown }) =>
    new StripeApiError(
      402,
      {
        type: 'card_error',
        code: detail.code,
        ...(detail.declineCode ? { decline_code: detail.declineCode } : {}),
        message: detail.message,
        doc_url: docUrl(detail.code),
        charge: detail.charge,
        payment_intent: detail.paymentIntent,
        payment_method: detail.paymentMethod,
      },
      true,
    ),
  rateLimited: () =>
    invalid(429, 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', { code: 'rate_limit' }),
  internal: () =>
    new StripeApiError(500, {
      type: 'api_error',
      message: "Sorry, something went wrong. We've already been notified of the problem, but if you need any help, you can reach us at https://support.stripe.com/contact.",
    }),
  unavailable: () =>
    new StripeApiError(503, { type: 'api_error', message: 'Stripe is temporarily unavailable. Please retry the request shortly.' }),
};

/** How Stripe answers its own errors, injected faults, bad bodies and unknown paths (kit/api-port.ts). */
export const stripeAnswers: ProviderAnswers = {
  known: (err, res) => {
    if (!(err instanceof StripeApiError)) return undefined;
    if (err.replayable) res.locals[REPLAYABLE_ERROR] = true;
    return err;
  },
  badBody: () => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', message: 'Invalid request body: expected application/x-www-form-urlencoded parameters.' } },
  }),
  notFound: (req) => stripeErrors.unrecognizedUrl(req.method, req.originalUrl.split('?')[0] ?? ''),
  // An unexpected failure is replayed under the same idempotency key, as Stripe does for its 500s.
  onUnexpected: (res) => {
    res.locals[REPLAYABLE_ERROR] = true;
  },
  internal: () => stripeErrors.internal(),
  unavailable: () => stripeErrors.unavailable(),
  rateLimited: () => stripeErrors.rateLimited(),
};

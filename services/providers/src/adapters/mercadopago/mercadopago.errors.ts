/**
 * One table from Mercado Pago's answer to our normalized code and the failover decision.
 */
import { rule, type ErrorRule } from '../error-rule';
import { ProviderError } from '../provider-adapter';
import { type MercadoPagoErrorBody } from './mercadopago.transformers';

/**
 * `cause[].code` values (API reference and error tables). Account-level problems (no Pix key,
 * live token in test, users of different environments) fail over; input no account could accept
 * (bad amount, e-mail, URL) would fail anywhere, so it does not.
 */
export const MERCADOPAGO_CAUSE_TABLE: Readonly<Record<string, ErrorRule>> = {
  '2000': rule('not_found', 'not_found', false), // Payment not found
  '3': rule('invalid_credentials', 'invalid_credentials', true), // Token must be for test
  '4': rule('invalid_credentials', 'invalid_credentials', true), // The caller is not authorized to access this resource
  '5': rule('invalid_credentials', 'invalid_credentials', true), // Must provide your access_token to proceed
  '7': rule('invalid_credentials', 'invalid_credentials', true), // Unauthorized use of live credentials
  '2034': rule('not_created', 'provider_error', true), // Invalid users involved
  '13253': rule('not_created', 'provider_error', true), // Collector user without key enabled for QR render
  '2018': rule('rejected', 'provider_rejected', false), // not cancellable in the current status
  '4037': rule('rejected', 'provider_rejected', false), // Invalid transaction_amount
  '4050': rule('rejected', 'provider_rejected', false), // payer.email must be a valid email
  '4020': rule('rejected', 'provider_rejected', false), // notification_url must be a valid url
  '4292': rule('rejected', 'provider_rejected', false), // X-Idempotency-Key can't be null (our bug)
};

export function causeCodes(body: unknown): string[] {
  const cause = (body as MercadoPagoErrorBody | undefined)?.cause;
  if (!Array.isArray(cause)) return [];
  return cause.map((c) => String(c?.code ?? '')).filter((code) => code.length > 0);
}

/**
 * The rule for an HTTP error answer: a known cause code wins, else the status. 423 ("idempotency
 * key locked": a request with this key is still being processed) may yet create the payment:
 * ambiguous. 429 and 5xx never reach
 * this table: the wire table (http/transport-errors.ts) classifies them by operation and method.
 */
export function ruleForHttpError(status: number, body: unknown): ErrorRule {
  for (const code of causeCodes(body)) {
    const known = MERCADOPAGO_CAUSE_TABLE[code];
    if (known) return known;
  }
  if (status === 401 || status === 403) return rule('invalid_credentials', 'invalid_credentials', true);
  if (status === 404) return rule('not_found', 'not_found', false);
  if (status === 423) return rule('ambiguous', 'provider_error', false);
  if (status === 424) return rule('not_created', 'provider_error', true); // failed dependency, retryable
  return rule('rejected', 'provider_rejected', false); // 400, 402, 409, 422 and the rest
}

/**
 * The ProviderError for an HTTP error answer. `withMessage: false` leaves out Mercado Pago's
 * free-text `message` (kept for card tokenization, whose answers could quote what was sent): the
 * error then names the status, `error` and cause codes only.
 */
export function providerErrorFor(status: number, body: unknown, operation: string, options: { withMessage?: boolean } = {}): ProviderError {
  const { kind, code } = ruleForHttpError(status, body);
  const b = (typeof body === 'object' && body !== null ? body : {}) as MercadoPagoErrorBody;
  const causes = causeCodes(body).map((cause) => (/^[A-Za-z0-9_]{1,16}$/.test(cause) ? cause : '?'));
  const message = options.withMessage === false ? undefined : b.message;
  const detail = `${b.error ? ` ${b.error}` : ''}${causes.length ? ` [${causes.join(',')}]` : ''}${message ? `: ${message}` : ''}`;
  return new ProviderError(kind, code, `mercadopago ${operation}: HTTP ${status}${detail}`, status);
}

/**
 * Stripe's error answers: one table from an answer to our normalized code and the failover
 * decision, and the two answers that are not failures of the account (a declined card, a card
 * token of another account).
 */
import { rule, type ErrorRule } from '../error-rule';
import { declineReason, stripeDecline } from '../../domain/card-declines';
import { ProviderError, type ProviderCharge } from '../provider-adapter';
import { type StripeErrorBody, toProviderCharge } from './stripe.transformers';

/**
 * Stripe `error.code` values (docs.stripe.com/error-codes). Account-level refusals (Pix not
 * activated, expired key) fail over; a request our own input made invalid would fail anywhere.
 */
export const STRIPE_ERROR_TABLE: Readonly<Record<string, ErrorRule>> = {
  api_key_expired: rule('invalid_credentials', 'invalid_credentials', true),
  secret_key_required: rule('invalid_credentials', 'invalid_credentials', true),
  payment_method_unactivated: rule('not_created', 'provider_error', true),
  testmode_charges_only: rule('not_created', 'provider_error', true),
  account_invalid: rule('invalid_credentials', 'invalid_credentials', true),
  amount_too_small: rule('rejected', 'provider_rejected', true),
  amount_too_large: rule('rejected', 'provider_rejected', true),
  parameter_invalid_integer: rule('rejected', 'provider_rejected', false),
  parameter_invalid_string: rule('rejected', 'provider_rejected', false),
  parameter_missing: rule('rejected', 'provider_rejected', false),
  parameter_unknown: rule('rejected', 'provider_rejected', false),
  payment_intent_unexpected_state: rule('rejected', 'provider_rejected', false),
  // Another request with this key is still running: it may yet create the charge.
  idempotency_key_in_use: rule('ambiguous', 'provider_error', false),
};

/**
 * The rule for an HTTP error answer. Status first where it is unambiguous (401/403 credentials,
 * 404 unknown object), then the code. 429 and 5xx never reach
 * this table: the wire table (http/transport-errors.ts) classifies them by operation and method. (Stripe's `rate_limit` and
 * `lock_timeout` come as 429.)
 */
export function ruleForHttpError(status: number, body: unknown): ErrorRule {
  const error = (body as Partial<StripeErrorBody> | undefined)?.error;
  if (status === 401 || status === 403) return rule('invalid_credentials', 'invalid_credentials', true);
  if (status === 404) return rule('not_found', 'not_found', false);
  const known = STRIPE_ERROR_TABLE[error?.code ?? ''];
  if (known) return known;
  if (error?.type === 'idempotency_error') return rule('rejected', 'provider_rejected', false);
  return rule('rejected', 'provider_rejected', false);
}

export function providerErrorFor(status: number, body: unknown, operation: string): ProviderError {
  const { kind, code } = ruleForHttpError(status, body);
  const error = (body as Partial<StripeErrorBody> | undefined)?.error;
  const detail = [error?.type, error?.code, error?.param ? `param ${error.param}` : undefined].filter(Boolean).join(' ');
  return new ProviderError(kind, code, `stripe ${operation}: HTTP ${status}${detail ? ` ${detail}` : ''}${error?.message ? `: ${error.message}` : ''}`, status);
}

/**
 * A card declined on create answers 402 `card_error` with the PaymentIntent inside (back at
 * `requires_payment_method`, `last_payment_error` set): a decline is a failed charge, not an
 * exception. Undefined when the body does not carry one.
 */
export function declinedCharge(status: number, body: unknown): ProviderCharge | undefined {
  const error = (body as Partial<StripeErrorBody> | undefined)?.error;
  if (status !== 402 || error?.type !== 'card_error' || !error.payment_intent?.id) return undefined;
  const charge = toProviderCharge(error.payment_intent);
  const failureCode = stripeDecline(error.decline_code, error.code);
  return { ...charge, status: 'failed', failureCode, failureReason: declineReason(failureCode) };
}

/**
 * A `pm_…` this account does not have (minted by another Stripe account, or made up): Stripe
 * answers 400 `resource_missing` on `payment_method`. The payment names the wrong field.
 */
export function unknownCardToken(status: number, body: unknown): ProviderError | undefined {
  const error = (body as Partial<StripeErrorBody> | undefined)?.error;
  if (status !== 400 || error?.code !== 'resource_missing' || error.param !== 'payment_method') return undefined;
  return new ProviderError('rejected', 'provider_rejected', `stripe create: unknown payment_method`, status, {
    name: 'card.token',
    publicMessage: declineReason('invalid_card_token'),
  });
}

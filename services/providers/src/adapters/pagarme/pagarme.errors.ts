/**
 * One table from Pagar.me's answer to our normalized code and the failover decision.
 */
import { rule, type ErrorRule } from '../error-rule';
import { ProviderError } from '../provider-adapter';
import { truncate, type PagarmeErrorBody } from './pagarme.transformers';

/**
 * Pagar.me v5 error bodies carry no error code (only `message` and, on 422, `errors` by field), so
 * the table is keyed by HTTP status (docs.pagar.me/reference/erros-1). 429 and 5xx never reach
 * it: the wire table (http/transport-errors.ts) classifies them by operation and method.
 */
export const PAGARME_ERROR_TABLE: Readonly<Record<number, ErrorRule>> = {
  400: rule('rejected', 'provider_rejected', false),
  401: rule('invalid_credentials', 'invalid_credentials', true),
  // Blocked account or key without permission: this account cannot charge, another may.
  403: rule('invalid_credentials', 'invalid_credentials', true),
  404: rule('not_found', 'not_found', false),
  409: rule('rejected', 'provider_rejected', false),
  // Valid request, but not possible on the resource as it is (e.g. canceling a failed charge).
  412: rule('rejected', 'provider_rejected', false),
  422: rule('rejected', 'provider_rejected', false),
};

export function ruleForHttpError(status: number): ErrorRule {
  const known = PAGARME_ERROR_TABLE[status];
  return known ?? rule('rejected', 'provider_rejected', false);
}

/** "The request is invalid. order.customer.email: The email field is required." (field names, never values). */
export function errorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, errors } = body as PagarmeErrorBody;
  const fields = errors && typeof errors === 'object' ? Object.entries(errors).map(([field, messages]) => `${field}: ${[messages].flat().join(' ')}`) : [];
  const text = [typeof message === 'string' ? message : undefined, ...fields].filter(Boolean).join(' ');
  return text ? truncate(text, 500) : undefined;
}

export function providerErrorFor(status: number, body: unknown, operation: string): ProviderError {
  const { kind, code } = ruleForHttpError(status);
  const message = errorMessage(body);
  return new ProviderError(kind, code, `pagarme ${operation}: HTTP ${status}${message ? `: ${message}` : ''}`, status);
}

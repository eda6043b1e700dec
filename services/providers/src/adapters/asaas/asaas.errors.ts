/**
 * Asaas errors: one table from an error answer to our normalized code and the failover decision.
 */
import { ProviderError } from '../provider-adapter';
import { rule, type ErrorRule } from '../error-rule';

/**
 * Asaas error codes (`{"errors":[{"code","description"}]}`). Validation codes are `invalid_<field>`
 * (docs.asaas.com "Códigos HTTP das respostas"): our input made the request invalid, so it would
 * fail anywhere. The codes of 401/404 bodies are not documented; the HTTP status decides.
 */
export const ASAAS_ERROR_TABLE: Readonly<Record<string, ErrorRule>> = {
  invalid_access_token: rule('invalid_credentials', 'invalid_credentials', true),
  invalid_access_token_format: rule('invalid_credentials', 'invalid_credentials', true),
  invalid_environment: rule('invalid_credentials', 'invalid_credentials', true),
  // On a create, the account may not act (pending approval, "critical authorization", blocked
  // feature): another account may. (Removing a paid charge also answers it; cancelCharge handles that.)
  invalid_action: rule('not_created', 'provider_error', true),
  invalid_customer: rule('rejected', 'provider_rejected', false),
  invalid_value: rule('rejected', 'provider_rejected', false),
  invalid_dueDate: rule('rejected', 'provider_rejected', false),
  invalid_billingType: rule('rejected', 'provider_rejected', false),
  invalid_cpfCnpj: rule('rejected', 'provider_rejected', false),
  not_found: rule('not_found', 'not_found', false),
};

interface AsaasErrorBody {
  errors?: { code?: unknown; description?: unknown }[];
}

export function errorCode(body: unknown): string | undefined {
  const code = (body as AsaasErrorBody | undefined)?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

function errorDescription(body: unknown): string | undefined {
  const description = (body as AsaasErrorBody | undefined)?.errors?.[0]?.description;
  return typeof description === 'string' ? description : undefined;
}

/**
 * The rule for an HTTP error answer. The status decides first for the classes that drive failover
 * (401/403 credentials, 404); the code refines the 4xx rest. 429 and 5xx never reach
 * this table: the wire table (http/transport-errors.ts) classifies them by operation and method.
 */
export function ruleForHttpError(status: number, body: unknown): ErrorRule {
  if (status === 401 || status === 403) return rule('invalid_credentials', 'invalid_credentials', true);
  if (status === 404) return rule('not_found', 'not_found', false);
  const known = ASAAS_ERROR_TABLE[errorCode(body) ?? ''];
  return known ?? rule('rejected', 'provider_rejected', false);
}

export function providerErrorFor(status: number, body: unknown, operation: string): ProviderError {
  const { kind, code } = ruleForHttpError(status, body);
  const name = errorCode(body);
  const description = errorDescription(body);
  return new ProviderError(kind, code, `asaas ${operation}: HTTP ${status}${name ? ` ${name}` : ''}${description ? `: ${description}` : ''}`, status);
}

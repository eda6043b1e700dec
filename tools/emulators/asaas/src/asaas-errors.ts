/**
 * Error answers as Asaas writes them: always `{"errors":[{"code","description"}]}`, codes
 * `invalid_<field>` for validation (docs.asaas.com "Códigos HTTP das respostas", example
 * `invalid_value` / `invalid_dueDate`). Descriptions in Portuguese, as Asaas answers.
 * Unconfirmed (no primary source): the codes of 401 (`invalid_access_token`), 404 (`not_found`),
 * 429, 500 and 503 bodies, and `invalid_action` for removing a paid charge.
 */
import type { ProviderAnswers } from '../../kit';

export interface AsaasErrorItem {
  code: string;
  description: string;
}

export class AsaasApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: AsaasErrorItem[],
  ) {
    super(errors[0]?.description ?? 'erro');
  }

  get body(): { errors: AsaasErrorItem[] } {
    return { errors: this.errors };
  }
}

const error = (status: number, code: string, description: string) => new AsaasApiError(status, [{ code, description }]);

export const asaasErrors = {
  invalid: (field: string, description: string) => error(400, `invalid_${field}`, description),
  invalidAction: (description: string) => error(400, 'invalid_action', description),
  invalidJson: () => error(400, 'invalid_request', 'O corpo da requisição não é um JSON válido.'),
  invalidAccessToken: () => error(401, 'invalid_access_token', 'A chave de API fornecida é inválida.'),
  invalidAccessTokenFormat: () => error(401, 'invalid_access_token_format', 'O formato da chave de API fornecida é inválido.'),
  wrongEnvironment: () => error(401, 'invalid_access_token', 'A chave de API fornecida não pertence a este ambiente.'),
  missingUserAgent: () => error(401, 'invalid_user_agent', 'O header User-Agent é obrigatório.'),
  notFound: (what: string) => error(404, 'not_found', `${what} não encontrado.`),
  routeNotFound: () => error(404, 'not_found', 'O endpoint solicitado não existe.'),
  rateLimited: () => error(429, 'rate_limit_exceeded', 'Limite de requisições excedido. Tente novamente mais tarde.'),
  internal: () => error(500, 'internal_error', 'Ocorreu um erro interno no servidor do Asaas.'),
  unavailable: () => error(503, 'service_unavailable', 'Serviço temporariamente indisponível.'),
};

/** How Asaas answers its own errors, injected faults, bad bodies and unknown paths (kit/api-port.ts). */
export const asaasAnswers: ProviderAnswers = {
  known: (err) => (err instanceof AsaasApiError ? err : undefined),
  badBody: () => asaasErrors.invalidJson(),
  notFound: () => asaasErrors.routeNotFound(),
  internal: () => asaasErrors.internal(),
  unavailable: () => asaasErrors.unavailable(),
  rateLimited: () => asaasErrors.rateLimited(),
};

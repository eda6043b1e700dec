/**
 * One table from Efí's answer to our normalized code and the failover decision.
 */
import { rule, type ErrorRule } from '../error-rule';
import { ProviderError } from '../provider-adapter';

/**
 * Efí `nome` values (Efí docs, Pix endpoints) and Banco Central RFC 7807 `type` suffixes. Account-
 * level problems (blocked document, a Pix key not of this account) fail over; a request our own
 * input made invalid (`valor_invalido`, `CobOperacaoInvalida`) would fail anywhere, so it does not.
 */
export const EFI_ERROR_TABLE: Readonly<Record<string, ErrorRule>> = {
  // Efí {nome, mensagem}
  valor_invalido: rule('rejected', 'provider_rejected', false),
  status_cobranca_invalido: rule('rejected', 'provider_rejected', false),
  txid_duplicado: rule('rejected', 'provider_rejected', false),
  chave_invalida: rule('not_created', 'provider_error', true),
  documento_bloqueado: rule('not_created', 'provider_error', true),
  cobranca_nao_encontrada: rule('not_found', 'not_found', false),
  location_nao_encontrada: rule('not_found', 'not_found', false),
  webhook_nao_encontrado: rule('not_found', 'not_found', false),
  webhook_invalido: rule('rejected', 'provider_rejected', false),
  erro_aplicacao: rule('not_created', 'provider_error', true),
  // OAuth (RFC 6749)
  invalid_client: rule('invalid_credentials', 'invalid_credentials', true),
  invalid_grant: rule('invalid_credentials', 'invalid_credentials', true),
  invalid_token: rule('invalid_credentials', 'invalid_credentials', true),
  // Banco Central RFC 7807 types
  CobOperacaoInvalida: rule('rejected', 'provider_rejected', false),
  // Pix Automático (§8): a recurrence, approval request or recurring charge our input or its state
  // makes invalid (not APROVADA, outside the 2–10 day window, a cycle already charged, no retry left).
  RecOperacaoInvalida: rule('rejected', 'provider_rejected', false),
  SolicRecOperacaoInvalida: rule('rejected', 'provider_rejected', false),
  CobROperacaoInvalida: rule('rejected', 'provider_rejected', false),
  // Over the refundable amount, past the 90-day window, or an id already used.
  PixDevolucaoInvalida: rule('rejected', 'provider_rejected', false),
  RequisicaoInvalida: rule('rejected', 'provider_rejected', false),
  AcessoNegado: rule('invalid_credentials', 'invalid_credentials', true),
  NaoEncontrado: rule('not_found', 'not_found', false),
  PermanentementeRemovido: rule('not_found', 'not_found', false),
  ErroInternoDoServidor: rule('not_created', 'provider_error', true),
  ServicoIndisponivel: rule('not_created', 'provider_unavailable', true),
};

/** The error name of an answer body: Efí `nome`, OAuth `error`, or the last segment of a RFC 7807 `type`. */
export function errorName(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { nome?: unknown; error?: unknown; type?: unknown };
  if (typeof b.nome === 'string') return b.nome;
  if (typeof b.error === 'string') return b.error;
  if (typeof b.type === 'string') return b.type.slice(b.type.lastIndexOf('/') + 1);
  return undefined;
}

function errorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { mensagem?: unknown; error_description?: unknown; detail?: unknown; title?: unknown };
  for (const value of [b.mensagem, b.error_description, b.detail, b.title]) if (typeof value === 'string') return value;
  return undefined;
}

/**
 * The rule for an HTTP error answer. The error name wins over the status: Efí answers "not found"
 * with 400 `cobranca_nao_encontrada`. 429 and 5xx never reach
 * this table: the wire table (http/transport-errors.ts) classifies them by operation and method.
 */
export function ruleForHttpError(status: number, body: unknown): ErrorRule {
  const known = EFI_ERROR_TABLE[errorName(body) ?? ''];
  if (known) return known;
  if (status === 401 || status === 403) return rule('invalid_credentials', 'invalid_credentials', true);
  if (status === 404) return rule('not_found', 'not_found', false);
  return rule('rejected', 'provider_rejected', false);
}

export function providerErrorFor(status: number, body: unknown, operation: string): ProviderError {
  const { kind, code } = ruleForHttpError(status, body);
  const name = errorName(body);
  const message = errorMessage(body);
  return new ProviderError(kind, code, `efi ${operation}: HTTP ${status}${name ? ` ${name}` : ''}${message ? `: ${message}` : ''}`, status);
}

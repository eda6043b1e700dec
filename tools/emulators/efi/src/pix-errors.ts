/**
 * Error bodies as Efí writes them. Efí's /v2/cob, /v2/loc and /v2/webhook endpoints answer
 * `{nome, mensagem}` (Efí docs "Cobranças imediatas", "Payload Locations", "Webhooks"; the SDK
 * says "os campos disponíveis no objeto serão `nome` e `mensagem`"). The Banco Central RFC 7807
 * shape is used only where Efí uses it too (here: 503 ServicoIndisponivel from fault injection).
 * OAuth errors follow RFC 6749 (`{error, error_description}`).
 */
import type { ProviderAnswers } from '../../kit';

export interface EfiErrorBody {
  nome: string;
  mensagem: string;
}

export class EfiApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: EfiErrorBody | ProblemBody | OAuthErrorBody,
  ) {
    super('mensagem' in body ? body.mensagem : 'detail' in body ? body.detail : body.error_description);
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  violacoes?: { razao: string; propriedade: string; valor?: string }[];
}

export interface OAuthErrorBody {
  error: string;
  error_description: string;
}

const efi = (status: number, nome: string, mensagem: string) => new EfiApiError(status, { nome, mensagem });

const problem = (status: number, tipo: string, title: string, detail: string, violacoes?: ProblemBody['violacoes']) =>
  new EfiApiError(status, {
    type: `https://pix.bcb.gov.br/api/v2/error/${tipo}`,
    title,
    status,
    detail,
    ...(violacoes ? { violacoes } : {}),
  });

/** The documented Efí errors the emulator answers, by name. */
export const pixErrors = {
  txidDuplicado: () => efi(409, 'txid_duplicado', 'Campo txid informado já foi utilizado em outra cobrança'),
  // Efí documents "not found" on GET/PATCH /v2/cob/:txid as HTTP 400, not 404.
  cobrancaNaoEncontrada: () => efi(400, 'cobranca_nao_encontrada', 'Nenhuma cobrança encontrada para o txid informado'),
  statusCobrancaInvalido: () => efi(400, 'status_cobranca_invalido', 'A cobrança não está mais com o status ATIVA'),
  chaveInvalida: () => efi(400, 'chave_invalida', 'A chave informada não faz referência à conta Efí autenticada'),
  valorInvalido: (mensagem: string) => efi(400, 'valor_invalido', mensagem),
  locationNaoEncontrada: () => efi(400, 'location_nao_encontrada', 'Nenhuma location encontrado para o identificador informado'),
  // Unconfirmed: Efí's docs show no error for GET of an unknown webhook; integrators report this name.
  webhookNaoEncontrado: () => efi(404, 'webhook_nao_encontrado', 'Webhook não encontrado para a chave informada'),
  webhookInvalido: (mensagem: string) => efi(400, 'webhook_invalido', mensagem),
  // Emulator-only: an endpoint it does not implement.
  rotaNaoEncontrada: () => efi(404, 'rota_nao_encontrada', 'Endpoint não implementado pelo emulador'),
  erroAplicacao: () => efi(500, 'erro_aplicacao', 'Ocorreu um erro interno no servidor'),
  // Unconfirmed: Efí's 429 body is not documented.
  limiteRequisicoes: () => efi(429, 'limite_requisicoes', 'Limite de requisições excedido, tente novamente mais tarde'),
  servicoIndisponivel: () =>
    new EfiApiError(503, {
      type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel',
      title: 'Serviço Indisponível',
      status: 503,
      detail: 'Serviço não está disponível no momento. Serviço solicitado pode estar em manutenção ou fora da janela de funcionamento.',
    }),
  // Devoluções follow the Banco Central API Pix: RFC 7807 bodies (Efí serves them as they are).
  requisicaoInvalida: (violacoes: { razao: string; propriedade: string; valor?: string }[]) =>
    problem(400, 'RequisicaoInvalida', 'Requisição inválida.', 'A requisição que busca alterar ou criar uma devolução não respeita o schema ou está semanticamente errada.', violacoes),
  pixDevolucaoInvalida: (razao: string, propriedade = 'id') =>
    problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'A devolução solicitada não pode ser realizada.', [{ razao, propriedade }]),
  pixNaoEncontrado: () => problem(404, 'NaoEncontrado', 'Não Encontrado', 'Pix não encontrado para o e2eid informado.'),
  devolucaoNaoEncontrada: () => problem(404, 'NaoEncontrado', 'Não Encontrado', 'Devolução não encontrada para o e2eid e id informados.'),
  invalidClient: () =>
    new EfiApiError(401, { error: 'invalid_client', error_description: 'Invalid or inactive credentials' }),
  unsupportedGrantType: () =>
    new EfiApiError(400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' }),
  // Unconfirmed: Efí's body for a missing/expired Bearer token; RFC 6750 shape used.
  invalidToken: () =>
    new EfiApiError(401, { error: 'invalid_token', error_description: 'The access token is missing, invalid or expired' }),
};

/** How Efí answers its own errors, injected faults, bad bodies and unknown paths (kit/api-port.ts). */
export const efiAnswers: ProviderAnswers = {
  known: (err) => (err instanceof EfiApiError ? err : undefined),
  badBody: () => ({ status: 400, body: { nome: 'valor_invalido', mensagem: 'Corpo da requisição não é um JSON válido' } }),
  notFound: () => pixErrors.rotaNaoEncontrada(),
  internal: () => pixErrors.erroAplicacao(),
  unavailable: () => pixErrors.servicoIndisponivel(),
  rateLimited: () => pixErrors.limiteRequisicoes(),
};

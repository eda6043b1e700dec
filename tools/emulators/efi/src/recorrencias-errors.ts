/**
 * The errors of the Pix Automático resources. Efí serves them as the Banco Central API Pix
 * writes them (RFC 7807 with `violacoes`), as it does for devoluções; the `*OperacaoInvalida`
 * types follow the spec's naming for each resource (`CobOperacaoInvalida` for cob).
 */
import { EfiApiError } from './pix-errors';

const problem = (status: number, tipo: string, title: string, detail: string, violacoes?: { razao: string; propriedade: string }[]) =>
  new EfiApiError(status, { type: `https://pix.bcb.gov.br/api/v2/error/${tipo}`, title, status, detail, ...(violacoes ? { violacoes } : {}) });

export const recErrors = {
  requisicaoInvalida: (propriedade: string, razao: string) =>
    problem(400, 'RequisicaoInvalida', 'Requisição inválida.', 'A requisição não respeita o schema ou está semanticamente errada.', [{ razao, propriedade }]),
  naoEncontrado: (detail: string) => problem(404, 'NaoEncontrado', 'Não Encontrado', detail),
  recOperacaoInvalida: (razao: string) => problem(400, 'RecOperacaoInvalida', 'Recorrência inválida.', razao),
  solicRecOperacaoInvalida: (razao: string) => problem(400, 'SolicRecOperacaoInvalida', 'Solicitação de recorrência inválida.', razao),
  cobrOperacaoInvalida: (razao: string) => problem(400, 'CobROperacaoInvalida', 'Cobrança recorrente inválida.', razao),
};

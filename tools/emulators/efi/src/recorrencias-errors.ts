/**
 * The errors of the Pix Automático resources, as the Banco Central API Pix defines them (its
 * "Tratamento de erros": RFC 7807 bodies, type `https://pix.bcb.gov.br/api/v2/error/<Tipo>`), which
 * Efí serves as they are, as it does for devoluções: per resource `<Recurso>NaoEncontrado(a)` (404),
 * `<Recurso>OperacaoInvalida` (400, bad bodies included, with `violacoes`) and
 * `<Recurso>ConsultaInvalida` (400, bad list parameters).
 */
import { EfiApiError } from './pix-errors';

export type Recurso = 'Rec' | 'SolicRec' | 'CobR' | 'PayloadLocationRec' | 'WebhookRec' | 'WebhookCobR';

const NAO_ENCONTRADO: Record<Recurso, string> = {
  Rec: 'RecNaoEncontrada',
  SolicRec: 'SolicRecNaoEncontrada',
  CobR: 'CobRNaoEncontrado',
  PayloadLocationRec: 'PayloadLocationRecNaoEncontrado',
  WebhookRec: 'NaoEncontrado',
  WebhookCobR: 'NaoEncontrado',
};

const problem = (status: number, tipo: string, title: string, detail: string, violacoes?: { razao: string; propriedade: string }[]) =>
  new EfiApiError(status, { type: `https://pix.bcb.gov.br/api/v2/error/${tipo}`, title, status, detail, ...(violacoes ? { violacoes } : {}) });

export const recErrors = {
  naoEncontrado: (recurso: Recurso, detail: string) => problem(404, NAO_ENCONTRADO[recurso], 'Não Encontrado', detail),
  /** The request breaks the schema or the resource's rules; `propriedade` names the field when one is at fault. */
  operacaoInvalida: (recurso: Recurso, razao: string, propriedade?: string) =>
    problem(400, `${recurso}OperacaoInvalida`, 'Operação inválida.', razao, propriedade ? [{ razao, propriedade }] : undefined),
  consultaInvalida: (recurso: Recurso, propriedade: string, razao: string) =>
    problem(400, `${recurso}ConsultaInvalida`, 'Consulta inválida.', 'Os parâmetros de consulta não respeitam o schema ou não fazem sentido semanticamente.', [{ razao, propriedade }]),
};

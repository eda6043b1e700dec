/**
 * MED infraction notices ("infrações"), the Efí extension of the Pix API: `GET
 * /v2/gn/infracoes?inicio&fim` lists those opened in the window as
 * `infracoes[{idInfracao, endToEndId, protocolo, valor, status, razao, tipoSituacao,
 * dadosAnalise{abertura, prazoFinalizacao}}]`, and `POST /v2/gn/infracoes/:idInfracao/defesa
 * {analise: "aceito"|"rejeitado", justificativa}` answers one (efipay/sdk-node-apis-efi
 * endpoints). Statuses ABERTA → EM_DEFESA (defense sent) → ACEITA | REJEITADA, or CANCELADA_EFI.
 * An "aceito" analysis agrees with the notice: ACEITA at once (the payer is refunded).
 *
 * The payer's bank opens notices, so here the control port does (`/__control/pix/:e2eId/infracao`)
 * and decides them (`/__control/infracoes/:id/decide`); `GET /__control/infracoes/:id` shows the
 * defense received. `tipoSituacao` and the error names are the emulator's (unconfirmed).
 */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { clientOf } from './cob.routes';
import type { EmulatorState } from './emulator-state';
import { EfiApiError, pixErrors } from './pix-errors';
import { refill, sendControlError as fail } from '../../kit';

export type InfracaoStatus = 'ABERTA' | 'ACEITA' | 'CANCELADA_EFI' | 'EM_DEFESA' | 'REJEITADA';

export interface Infracao {
  clientId: string;
  idInfracao: string;
  endToEndId: string;
  protocolo: string;
  valor: string;
  status: InfracaoStatus;
  razao: string;
  tipoSituacao: string;
  abertura: Date;
  prazoFinalizacao: Date;
  defesa?: { analise: 'aceito' | 'rejeitado'; justificativa: string; horario: string };
}

/** Banco Central: the receiving institution answers a notice within 7 days. */
const ANSWER_DAYS = 7;
const VALOR = /^\d{1,10}\.\d{2}$/;

export class InfracaoBook {
  private readonly infracoes = new Map<string, Infracao>();

  open(clientId: string, endToEndId: string, valor: string, razao: string, now: Date): Infracao {
    const infracao: Infracao = {
      clientId,
      idInfracao: randomBytes(16).toString('hex'),
      endToEndId,
      protocolo: `MED${now.getTime()}${randomBytes(2).toString('hex')}`,
      valor,
      status: 'ABERTA',
      razao,
      tipoSituacao: 'AGUARDANDO_DEFESA',
      abertura: now,
      prazoFinalizacao: new Date(now.getTime() + ANSWER_DAYS * 86_400_000),
    };
    this.infracoes.set(infracao.idInfracao, infracao);
    return infracao;
  }

  get(id: string): Infracao | undefined {
    return this.infracoes.get(id);
  }

  list(clientId: string, inicio: Date, fim: Date): Infracao[] {
    return [...this.infracoes.values()].filter((i) => i.clientId === clientId && i.abertura >= inicio && i.abertura <= fim);
  }

  openFor(clientId: string, endToEndId: string): Infracao | undefined {
    return [...this.infracoes.values()].find((i) => i.clientId === clientId && i.endToEndId === endToEndId && (i.status === 'ABERTA' || i.status === 'EM_DEFESA'));
  }

  clear(): void {
    this.infracoes.clear();
  }

  snapshot(): Map<string, Infracao> {
    return this.infracoes;
  }

  restore(snapshot: Map<string, Infracao>): void {
    refill(this.infracoes, snapshot);
  }
}

export function infracaoJson(i: Infracao) {
  return {
    idInfracao: i.idInfracao,
    endToEndId: i.endToEndId,
    protocolo: i.protocolo,
    valor: i.valor,
    status: i.status,
    razao: i.razao,
    tipoSituacao: i.tipoSituacao,
    dadosAnalise: { abertura: i.abertura.toISOString(), prazoFinalizacao: i.prazoFinalizacao.toISOString() },
  };
}

const defesaSchema = z
  .object({
    analise: z.enum(['aceito', 'rejeitado'], { errorMap: () => ({ message: 'analise deve ser "aceito" ou "rejeitado".' }) }),
    justificativa: z.string({ required_error: 'justificativa é obrigatória.' }).min(1, 'justificativa é obrigatória.').max(2_000, 'justificativa deve ter no máximo 2000 caracteres.'),
  })
  .strict();

const efiError = (status: number, nome: string, mensagem: string) => new EfiApiError(status, { nome, mensagem });

/** `/v2/gn/infracoes` routes; mounted under `/v2` behind the Bearer check. */
export function infracaoRoutes(state: EmulatorState, book: InfracaoBook): Router {
  const router = Router();

  router.get('/gn/infracoes', (req, res) => {
    const inicio = typeof req.query['inicio'] === 'string' ? new Date(req.query['inicio']) : undefined;
    const fim = typeof req.query['fim'] === 'string' ? new Date(req.query['fim']) : undefined;
    if (!inicio || Number.isNaN(inicio.getTime()) || !fim || Number.isNaN(fim.getTime())) {
      throw pixErrors.requisicaoInvalida([{ razao: 'Os parâmetros inicio e fim são obrigatórios (RFC 3339).', propriedade: 'inicio' }]);
    }
    if (fim < inicio) throw pixErrors.requisicaoInvalida([{ razao: 'fim deve ser posterior a inicio.', propriedade: 'fim' }]);
    res.status(200).json({ parametros: { inicio: inicio.toISOString(), fim: fim.toISOString() }, infracoes: book.list(clientOf(res), inicio, fim).map(infracaoJson) });
  });

  router.post('/gn/infracoes/:idInfracao/defesa', (req, res) => {
    const infracao = book.get(req.params['idInfracao'] ?? '');
    if (!infracao || infracao.clientId !== clientOf(res)) throw efiError(404, 'infracao_nao_encontrada', 'Nenhuma infração encontrada para o idInfracao informado');
    const parsed = defesaSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw efiError(400, 'json_invalido', parsed.error.issues[0]?.message ?? 'Requisição inválida');
    if (infracao.status !== 'ABERTA') throw efiError(400, 'infracao_status_invalido', `A infração não aceita defesa no status ${infracao.status}`);
    if (state.now() > infracao.prazoFinalizacao) throw efiError(400, 'prazo_defesa_expirado', 'O prazo para a defesa desta infração terminou');
    infracao.defesa = { ...parsed.data, horario: state.now().toISOString() };
    infracao.status = parsed.data.analise === 'aceito' ? 'ACEITA' : 'EM_DEFESA';
    res.status(200).json(infracaoJson(infracao));
  });

  return router;
}

const openSchema = z
  .object({ client_id: z.string().optional(), valor: z.string().regex(VALOR).optional(), razao: z.string().max(140).optional() })
  .strict();
const decideSchema = z.object({ status: z.enum(['ACEITA', 'REJEITADA', 'CANCELADA_EFI']) }).strict();

const controlView = (i: Infracao) => ({ ...infracaoJson(i), client_id: i.clientId, defesa: i.defesa ?? null });

/** Control routes: open a notice on a received Pix, decide it, read it with its defense. */
export function infracaoControlRoutes(state: EmulatorState, book: InfracaoBook): Router {
  const router = Router();

  router.post('/__control/pix/:e2eId/infracao', (req, res) => {
    const parsed = openSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const e2eId = req.params['e2eId'] ?? '';
    const found = state.findPixAnyClient(e2eId).filter((f) => !parsed.data.client_id || f.charge.clientId === parsed.data.client_id);
    const [only, ...more] = found;
    if (!only) return fail(res, 404, 'pix_not_found', `no received Pix ${e2eId}`);
    if (more.length > 0) return fail(res, 409, 'ambiguous_pix', 'several clients received this Pix: send client_id');
    const { charge, pix } = only;
    if (book.openFor(charge.clientId, e2eId)) return fail(res, 409, 'infracao_exists', 'this Pix already has an infração in progress');
    const valor = parsed.data.valor ?? pix.valor;
    if (Number(valor) > Number(pix.valor)) return fail(res, 400, 'invalid_request', 'valor is over the Pix');
    const infracao = book.open(charge.clientId, e2eId, valor, parsed.data.razao ?? 'Fraude: golpe relatado pelo pagador', state.now());
    res.status(201).json(controlView(infracao));
  });

  router.post('/__control/infracoes/:id/decide', (req, res) => {
    const parsed = decideSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const infracao = book.get(req.params['id'] ?? '');
    if (!infracao) return fail(res, 404, 'infracao_not_found', `no infração ${req.params['id'] ?? ''}`);
    if (infracao.status !== 'ABERTA' && infracao.status !== 'EM_DEFESA') return fail(res, 409, 'infracao_decided', `infração is ${infracao.status}`);
    infracao.status = parsed.data.status;
    res.status(200).json(controlView(infracao));
  });

  router.get('/__control/infracoes/:id', (req, res) => {
    const infracao = book.get(req.params['id'] ?? '');
    if (!infracao) return fail(res, 404, 'infracao_not_found', `no infração ${req.params['id'] ?? ''}`);
    res.status(200).json(controlView(infracao));
  });

  return router;
}

/**
 * Received Pix (Banco Central `GET /v2/pix/:e2eId`) and their refunds
 * (`PUT|GET /v2/pix/:e2eId/devolucao/:id`), with the
 * schema's limits and its RFC 7807 errors. Mounted under `/v2` behind the Bearer check.
 */
import { Router } from 'express';
import { z } from 'zod';
import { clientOf } from './cob.routes';
import type { EmulatorState } from './emulator-state';
import { pixErrors } from './pix-errors';
import type { RefundSettler } from './refund-settler';

const DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;
const VALOR = /^\d{1,10}\.\d{2}$/;
/** Banco Central: a devolução may be asked for up to 90 days after the Pix settled. */
const REFUND_WINDOW_MS = 90 * 24 * 3_600_000;

const devolucaoSchema = z.object({
  valor: z.string().regex(VALOR, 'valor não respeita o formato \\d{1,10}\\.\\d{2}'),
  natureza: z.enum(['ORIGINAL', 'RETIRADA']).optional(),
  descricao: z.string().max(140, 'descricao deve ter no máximo 140 caracteres').optional(),
});

export function devolucaoRoutes(state: EmulatorState, settler: RefundSettler): Router {
  const router = Router();

  router.put('/pix/:e2eId/devolucao/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    if (!DEVOLUCAO_ID.test(id)) {
      throw pixErrors.requisicaoInvalida([{ razao: 'O campo id não respeita o schema [a-zA-Z0-9]{1,35}.', propriedade: 'id', valor: id }]);
    }
    const parsed = devolucaoSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      throw pixErrors.requisicaoInvalida(
        parsed.error.issues.map((issue) => ({
          razao: issue.code === 'invalid_type' ? `O campo ${issue.path.join('.')} é obrigatório e deve ser texto.` : issue.message,
          propriedade: issue.path.join('.') || 'body',
        })),
      );
    }
    const body = parsed.data;
    if (/^0+\.00$/.test(body.valor)) throw pixErrors.requisicaoInvalida([{ razao: 'O valor da devolução deve ser maior que zero.', propriedade: 'valor', valor: body.valor }]);
    const { charge, pix } = state.findPix(clientOf(res), req.params['e2eId'] ?? '');
    // RETIRADA returns a Pix Saque/Troco; the emulator only receives ordinary Pix.
    if (body.natureza === 'RETIRADA') throw pixErrors.pixDevolucaoInvalida('A natureza RETIRADA só se aplica a Pix Saque ou Pix Troco.', 'natureza');
    if (state.now().getTime() - Date.parse(pix.horario) > REFUND_WINDOW_MS) {
      throw pixErrors.pixDevolucaoInvalida('O prazo de 90 dias para devolução deste Pix terminou.', 'e2eid');
    }
    const devolucao = state.createDevolucao(pix, { id, valor: body.valor, natureza: body.natureza ?? 'ORIGINAL', ...(body.descricao !== undefined ? { descricao: body.descricao } : {}) });
    settler.schedule(charge, pix, devolucao);
    res.status(201).json(devolucao);
  });

  // A received Pix (Banco Central `GET /pix/{e2eid}`), a cob's or a paid cobr's, with its devoluções.
  router.get('/pix/:e2eId', (req, res) => {
    res.status(200).json(state.findPix(clientOf(res), req.params['e2eId'] ?? '').pix);
  });

  router.get('/pix/:e2eId/devolucao/:id', (req, res) => {
    const { pix } = state.findPix(clientOf(res), req.params['e2eId'] ?? '');
    res.status(200).json(state.findDevolucao(pix, req.params['id'] ?? ''));
  });

  return router;
}

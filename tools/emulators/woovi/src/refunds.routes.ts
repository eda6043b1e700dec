/**
 * `POST /api/v1/refund` (by end-to-end id), `POST /api/v1/charge/:id/refund` (by charge),
 * `GET /api/v1/refund/:id` and `GET /api/v1/charge/:id/refund` (see refunds.ts).
 */
import { Router } from 'express';
import { z } from 'zod';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { chargeRefundJson, chargeRefunds, createRefund, findRefund, refundJson, type RefundSettler } from './refunds';
import { wooviErrors } from './woovi-errors';

const refundSchema = z.object({
  correlationID: z.string({ required_error: 'correlationID é obrigatório' }).min(1, 'correlationID é obrigatório').max(100),
  transactionEndToEndId: z.string({ required_error: 'transactionEndToEndId é obrigatório' }).min(1, 'transactionEndToEndId é obrigatório'),
  value: z.number().int('value deve ser um inteiro em centavos').optional(),
  comment: z.string().max(140, 'comment deve ter até 140 caracteres').optional(),
});

export function refundRoutes(state: EmulatorState, settler: RefundSettler): Router {
  const router = Router();

  router.post('/refund', (req, res) => {
    const parsed = refundSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const accountId = accountOf(res);
    const earlier = findRefund(state, accountId, parsed.data.correlationID);
    const charge = earlier?.charge ?? state.listCharges(accountId).find((c) => c.pix?.endToEndId === parsed.data.transactionEndToEndId);
    if (!charge) throw wooviErrors.invalid('Transação não encontrada');
    const { refund, created } = createRefund(state, charge, parsed.data);
    if (created) settler.schedule(charge, refund);
    res.status(200).json({ refund: refundJson(refund) });
  });

  // "Reembolsar cobrança inteira / parcial" by the charge's id (value omitted = what is left).
  router.post('/charge/:id/refund', (req, res) => {
    const parsed = refundSchema.omit({ transactionEndToEndId: true }).safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const accountId = accountOf(res);
    const charge = findRefund(state, accountId, parsed.data.correlationID)?.charge ?? state.getCharge(accountId, req.params['id'] ?? '');
    const { refund, created } = createRefund(state, charge, parsed.data);
    if (created) settler.schedule(charge, refund);
    res.status(200).json({ refund: refundJson(refund) });
  });

  router.get('/refund/:id', (req, res) => {
    const found = findRefund(state, accountOf(res), req.params['id'] ?? '');
    if (!found) throw wooviErrors.invalid('Reembolso não encontrado');
    res.status(200).json({ refund: refundJson(found.refund) });
  });

  router.get('/charge/:id/refund', (req, res) => {
    const charge = state.getCharge(accountOf(res), req.params['id'] ?? '');
    res.status(200).json({ refunds: chargeRefunds(charge).map(chargeRefundJson) });
  });

  return router;
}

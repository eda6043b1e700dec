import { toPublicDispute, type disputes } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { DISPUTE_HINTS, DisputeEvidenceSchema, ListDisputesQuerySchema, SimulateDisputeSchema } from '../schemas/dispute.schema';
import { DisputeIdPathSchema, PaymentIdSchema } from '../schemas/path-params.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

const toJson = (dispute: disputes.Dispute | undefined) => {
  if (!dispute) throw new AppError('internal', { message: 'the disputes service answered without a dispute' });
  return toPublicDispute(dispute);
};

/**
 * Disputes (MED for Pix, chargebacks for card): POST /v1/payments/{id}/simulate-dispute (test
 * mode), GET /v1/disputes, GET /v1/disputes/{id}, POST /v1/disputes/{id}/evidence. Full keys only.
 */
export function disputesRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  const guard = [authenticate, requireFullKey()];
  const disputeIdOf = (req: Request) => pathIdOf(req, DisputeIdPathSchema);

  router.post('/payments/:id/simulate-dispute', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const paymentId = pathIdOf(req, PaymentIdSchema);
    const input = parseOrThrow(SimulateDisputeSchema, req.body ?? {}, 'body', DISPUTE_HINTS);
    const { dispute } = await aboutPathId(() =>
      clients.disputes.simulateDispute(
        { caller: callerOf(res), payment_id: paymentId, amount: input.amount ?? 0, reason: input.reason ?? '' },
        rpcOptions(res),
      ),
    );
    const json = toJson(dispute);
    res.status(201).setHeader('Location', `/v1/disputes/${json.id}`).json(json);
  });

  router.get('/disputes', ...guard, async (req, res) => {
    const query = parseOrThrow(ListDisputesQuerySchema, req.query, 'query', DISPUTE_HINTS);
    const response = await clients.disputes.listDisputes(
      {
        caller: callerOf(res),
        status: query.status ?? '',
        payment_id: query.payment_id ?? '',
        limit: query.limit,
        starting_after: query.starting_after ?? '',
      },
      rpcOptions(res),
    );
    res.json({ object: 'list', data: response.disputes.map((d) => toPublicDispute(d)), has_more: response.has_more });
  });

  router.get('/disputes/:id', ...guard, async (req, res) => {
    const id = disputeIdOf(req);
    const { dispute } = await aboutPathId(() => clients.disputes.getDispute({ caller: callerOf(res), dispute_id: id }, rpcOptions(res)));
    res.json(toJson(dispute));
  });

  router.post('/disputes/:id/evidence', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const id = disputeIdOf(req);
    const input = parseOrThrow(DisputeEvidenceSchema, req.body, 'body', DISPUTE_HINTS);
    const { dispute } = await aboutPathId(() =>
      clients.disputes.submitEvidence({ caller: callerOf(res), dispute_id: id, text: input.text, urls: input.urls }, rpcOptions(res)),
    );
    res.json(toJson(dispute));
  });

  return router;
}

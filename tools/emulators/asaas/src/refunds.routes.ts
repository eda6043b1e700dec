/** `POST /v3/payments/:id/refund` and `GET /v3/payments/:id/refunds` (see refunds.ts). */
import { Router } from 'express';
import { accountOf } from './access-token';
import { asaasErrors } from './asaas-errors';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { sendJson } from './json-body';
import { reaisTextToCents } from './money-json';
import { createRefund, refundJson, type RefundSettler } from './refunds';
import { asBody, optionalString } from './request-fields';

export function refundRoutes(state: EmulatorState, settler: RefundSettler, json: (p: StoredPayment) => unknown): Router {
  const router = Router();

  router.post('/payments/:id/refund', (req, res) => {
    const payment = state.getPayment(accountOf(res).id, req.params['id'] ?? '');
    const body = asBody(req.body);
    const raw = body['value'];
    let valueCents: number | undefined;
    if (raw !== undefined && raw !== null) {
      valueCents = typeof raw === 'string' ? reaisTextToCents(raw) : undefined;
      if (valueCents === undefined) throw asaasErrors.invalid('value', 'O valor do estorno é inválido.');
    }
    const refund = createRefund(payment, valueCents, optionalString(body, 'description', 500), state.now());
    settler.schedule(payment, refund, json);
    sendJson(res, 200, json(payment));
  });

  router.get('/payments/:id/refunds', (req, res) => {
    const refunds = state.getPayment(accountOf(res).id, req.params['id'] ?? '').refunds ?? [];
    sendJson(res, 200, { object: 'list', hasMore: false, totalCount: refunds.length, limit: 100, offset: 0, data: refunds.map(refundJson) });
  });

  return router;
}

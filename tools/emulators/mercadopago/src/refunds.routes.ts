/**
 * `POST /v1/payments/:id/refunds`, `GET /v1/payments/:id/refunds` and
 * `GET /v1/payments/:id/refunds/:refund_id` (behind the access-token check). See refunds.ts.
 */
import { Router } from 'express';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { mpErrors } from './mp-errors';
import { createRefund, refundAmountOf, refundJson, type RefundSettler } from './refunds';

function idParam(raw: string | undefined, notFound: () => Error): number {
  if (!raw || !/^\d{1,19}$/.test(raw)) throw notFound();
  return Number(raw);
}

export function refundRoutes(state: EmulatorState, settler: RefundSettler): Router {
  const router = Router();

  router.post('/v1/payments/:id/refunds', (req, res) => {
    const idempotencyKey = req.header('x-idempotency-key')?.trim();
    if (!idempotencyKey) throw mpErrors.idempotencyKeyMissing();
    const payment = state.getPayment(accountOf(res).userId, idParam(req.params['id'], mpErrors.paymentNotFound));
    const already = (payment.refunds ?? []).find((r) => r.idempotencyKey === idempotencyKey);
    const amount = already ? undefined : refundAmountOf(req.body, payment);
    const { refund, created } = createRefund(payment, amount, idempotencyKey, 'collector', state.now());
    if (created) settler.schedule(payment, refund);
    res.status(201).json(refundJson(refund));
  });

  router.get('/v1/payments/:id/refunds', (req, res) => {
    const payment = state.getPayment(accountOf(res).userId, idParam(req.params['id'], mpErrors.paymentNotFound));
    res.status(200).json((payment.refunds ?? []).map(refundJson));
  });

  router.get('/v1/payments/:id/refunds/:refundId', (req, res) => {
    const payment = state.getPayment(accountOf(res).userId, idParam(req.params['id'], mpErrors.paymentNotFound));
    const id = idParam(req.params['refundId'], mpErrors.refundNotFound);
    const refund = (payment.refunds ?? []).find((r) => r.id === id);
    if (!refund) throw mpErrors.refundNotFound();
    res.status(200).json(refundJson(refund));
  });

  return router;
}

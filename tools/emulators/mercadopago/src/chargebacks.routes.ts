/**
 * `GET /v1/chargebacks/:id` and `POST /v1/chargebacks/:id/documentation` (behind the access-token
 * check): the account's chargeback, and the seller's documents for it. See chargebacks.ts.
 */
import express, { Router } from 'express';
import { accountOf } from './auth';
import { chargebackJson, chargebackNotFound, receiveDocumentation } from './chargebacks';
import type { EmulatorState } from './emulator-state';
import { mpErrors } from './mp-errors';
import type { WebhookSender } from './webhook-sender';

export function chargebackRoutes(state: EmulatorState, sender: WebhookSender): Router {
  const router = Router();
  router.get('/v1/chargebacks/:id', (req, res) => {
    const id = req.params['id'];
    if (!/^\d{1,24}$/.test(id)) throw chargebackNotFound();
    res.status(200).json(chargebackJson(state.getChargeback(accountOf(res).userId, id)));
  });

  // Multipart `files[]` (.jpg, .png, .pdf; 10 MB in all), as Mercado Pago documents the upload.
  router.post('/v1/chargebacks/:id/documentation', express.raw({ type: 'multipart/form-data', limit: '10mb' }), (req, res) => {
    const id = req.params['id'];
    if (!/^\d{1,24}$/.test(id)) throw chargebackNotFound();
    const chargeback = state.getChargeback(accountOf(res).userId, id);
    const boundary = /boundary=("?)([^";]+)\1/i.exec(req.header('content-type') ?? '')?.[2];
    if (!boundary || !Buffer.isBuffer(req.body)) throw mpErrors.badRequest('documentation must be multipart/form-data with files[]');
    try {
      receiveDocumentation(chargeback, req.body, boundary, state.now());
    } catch (err) {
      throw mpErrors.badRequest((err as Error).message);
    }
    const payment = state.findPayment(chargeback.paymentId);
    if (payment) sender.notifyChargeback(payment, chargeback, 'updated');
    res.status(200).json(chargebackJson(chargeback));
  });
  return router;
}

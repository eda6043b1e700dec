/**
 * The API port's application, under `/core/v5` like `https://api.pagar.me/core/v5`: fault injection
 * first (it must act before any real work), then body parsing, the public QR image, and the
 * order and charge routes behind the secret-key check.
 */
import express, { type Express } from 'express';
import { identifyCaller, requireSecretKey } from './auth';
import { chargeRoutes, qrCodeImageRoutes } from './charges.routes';
import type { EmulatorState } from './emulator-state';
import { emulatorApiApp, finishApi, injectFaults, type Logger } from '../../kit';
import { orderRoutes, type OrderRoutesOptions } from './orders.routes';
import { pagarmeAnswers, pagarmeErrors } from './pagarme-errors';
import type { WebhookSender } from './webhook-sender';
import { withdrawalRoutes } from './withdrawals.routes';
import { recipientRoutes } from './recipients.routes';

export const API_PREFIX = '/core/v5';

export function pagarmeApiApp(state: EmulatorState, sender: WebhookSender, orders: OrderRoutesOptions, logger: Logger, withdrawals: { feeCents: number }): Express {
  const app = emulatorApiApp(logger, (res) => ({ account: res.locals['accountId'] }));
  app.use(injectFaults(state.faults, identifyCaller, pagarmeAnswers));
  app.use(express.json({ limit: '1mb' }));
  app.use(API_PREFIX, qrCodeImageRoutes(state));
  // The boleto voucher Pagar.me hosts (`url`, and `pdf` as text): public, like the QR image.
  app.get('/boletos/:transactionId{/:format}', (req, res) => {
    const boleto = state.findByTransaction(req.params['transactionId'] ?? '')?.charge.transaction.boleto;
    if (!boleto) throw pagarmeErrors.routeNotFound();
    res.status(200).type(req.params['format'] === 'pdf' ? 'text/plain' : 'html').send(`Boleto ${boleto.line}`);
  });
  app.use(API_PREFIX, requireSecretKey(state), orderRoutes(state, orders, sender), chargeRoutes(state, sender, orders.qrCodeUrl), recipientRoutes(state), withdrawalRoutes(state, withdrawals));
  return finishApi(app, pagarmeAnswers, logger);
}

/**
 * The API port's application: fault injection first (it must act before any real work), then
 * body parsing and the access-token check in front of the payment routes.
 */
import express, { type Express } from 'express';
import { bearerToken, requireAccessToken } from './auth';
import type { EmulatorState } from './emulator-state';
import { injectFaults } from './fault-injection';
import type { Logger } from '../../kit';
import { apiErrorHandler, mpErrors } from './mp-errors';
import { paymentRoutes, type PaymentRoutesOptions } from './payments.routes';
import type { RefundSettler } from './refunds';
import { refundRoutes } from './refunds.routes';
import type { WebhookSender } from './webhook-sender';

export function apiApp(state: EmulatorState, sender: WebhookSender, options: PaymentRoutesOptions, logger: Logger, settler: RefundSettler): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    const started = Date.now();
    // Method, path and status only: tokens, query strings and bodies are never logged.
    res.on('finish', () => logger.debug({ method: req.method, path: req.path, status: res.statusCode, ms: Date.now() - started }, 'api request'));
    next();
  });
  // Faults are keyed by the caller's access token, the credential that identifies the account.
  app.use(injectFaults(state.faults, (req) => bearerToken(req)));
  app.use(express.json({ limit: '1mb' }));
  app.use(requireAccessToken(state), paymentRoutes(state, sender, options), refundRoutes(state, settler));
  app.use(() => {
    throw mpErrors.routeNotFound();
  });
  app.use(apiErrorHandler((err) => logger.error({ err }, 'unexpected error')));
  return app;
}

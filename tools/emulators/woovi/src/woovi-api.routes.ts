/**
 * The API port's application: fault injection first (it must act before any real work), then
 * body parsing, the public routes, and `/api/v1` behind the AppID check.
 */
import express, { type Express } from 'express';
import { identifyCaller, requireAppId } from './auth';
import type { ExpiryScheduler } from './charge-expiry';
import { chargeRoutes, type ChargeRoutesOptions } from './charge.routes';
import type { EmulatorState } from './emulator-state';
import { injectFaults } from './fault-injection';
import type { Logger } from '../../kit';
import { publicRoutes } from './public.routes';
import type { SigningKeys } from './signing-keys';
import { webhookConfigRoutes } from './webhook-config.routes';
import type { RefundSettler } from './refunds';
import { refundRoutes } from './refunds.routes';
import { transactionRoutes } from './transaction.routes';
import type { WebhookSender } from './webhook-sender';
import { apiErrorHandler, wooviErrors } from './woovi-errors';

export interface ApiDependencies {
  state: EmulatorState;
  sender: WebhookSender;
  expiry: ExpiryScheduler;
  keys: SigningKeys;
  charges: ChargeRoutesOptions;
  logger: Logger;
  refunds: RefundSettler;
}

export function wooviApiApp({ state, sender, expiry, keys, charges, logger, refunds }: ApiDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    const started = Date.now();
    // Path only: query strings, headers (the AppID) and bodies are never logged.
    res.on('finish', () =>
      logger.debug({ method: req.method, path: req.path, status: res.statusCode, account: res.locals['accountId'], ms: Date.now() - started }, 'api request'),
    );
    next();
  });
  app.use(injectFaults(state.faults, identifyCaller));
  app.use(express.json({ limit: '1mb' }));
  app.use(publicRoutes(state, keys));
  app.use('/api/v1', requireAppId(state), chargeRoutes(state, sender, expiry, charges), refundRoutes(state, refunds), transactionRoutes(state), webhookConfigRoutes(state, sender));
  app.use(() => {
    throw wooviErrors.routeNotFound();
  });
  app.use(apiErrorHandler((err) => logger.error({ err }, 'unexpected error')));
  return app;
}

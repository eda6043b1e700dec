/**
 * The API port's application: fault injection first (it must act before any real work), then
 * body parsing and the access-token check in front of the payment routes.
 */
import express, { type Express } from 'express';
import { bearerToken, requireAccessToken } from './auth';
import type { EmulatorState } from './emulator-state';
import { emulatorApiApp, finishApi, injectFaults, type Logger } from '../../kit';
import { mpAnswers } from './mp-errors';
import { cardTokenRoutes } from './card-tokens';
import { searchRoutes } from './search.routes';
import { paymentRoutes, type PaymentRoutesOptions } from './payments.routes';
import type { RefundSettler } from './refunds';
import { refundRoutes } from './refunds.routes';
import { chargebackRoutes } from './chargebacks.routes';
import type { WebhookSender } from './webhook-sender';

export function apiApp(state: EmulatorState, sender: WebhookSender, options: PaymentRoutesOptions, logger: Logger, settler: RefundSettler): Express {
  const app = emulatorApiApp(logger);
  // Faults are keyed by the caller's access token, the credential that identifies the account.
  app.use(injectFaults(state.faults, (req) => bearerToken(req), mpAnswers));
  app.use(express.json({ limit: '1mb' }));
  // The search before `/v1/payments/:id`, which would take `search` for an id.
  app.use(requireAccessToken(state), cardTokenRoutes(state), searchRoutes(state), paymentRoutes(state, sender, options), refundRoutes(state, settler), chargebackRoutes(state, sender));
  return finishApi(app, mpAnswers, logger);
}

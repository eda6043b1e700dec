/**
 * The API port's application, mounted at `/v3` as Asaas serves it: RateLimit-* headers and fault
 * injection first (they act before any real work), then the body parser, the `access_token`
 * check and the routes. Charge creation (`POST /v3/payments`) has a fault registry of its own, so
 * tests can fail the create while the lookups before it succeed.
 */
import type { Express, Request } from 'express';
import { asaasAnswers } from './asaas-errors';
import { identifyCaller, requireAccessToken } from './access-token';
import { customerRoutes } from './customers.routes';
import type { EmulatorState } from './emulator-state';
import { rateLimitHeaders } from './rate-limit-headers';
import { jsonBody } from './json-body';
import { emulatorApiApp, finishApi, injectFaults, type Logger } from '../../kit';
import { paymentRoutes, type PaymentRoutesOptions } from './payments.routes';
import { webhookConfigRoutes } from './webhook-config.routes';
import { paymentJson } from './asaas-json';
import { pixAutomaticRoutes } from './pix-automatic.routes';
import type { RefundSettler } from './refunds';
import { refundRoutes } from './refunds.routes';
import type { WebhookSender } from './webhook-sender';
import { transferRoutes, type TransferRoutesOptions } from './transfers.routes';
import { subaccountRoutes } from './subaccounts.routes';

const isCreatePayment = (req: Request) => req.method === 'POST' && /^\/v3\/payments\/?$/.test(req.path);

/** Transfers (transfers.ts): how their webhooks are sent, and their fee. */
export interface TransferParts {
  notify: (accountId: string, event: string, transfer: unknown) => void;
  options: TransferRoutesOptions;
}

export function asaasApiApp(state: EmulatorState, sender: WebhookSender, payments: PaymentRoutesOptions, logger: Logger, settler: RefundSettler, transfers: TransferParts): Express {
  const app = emulatorApiApp(logger);
  app.use(rateLimitHeaders());
  app.use(injectFaults(state.faults, identifyCaller, asaasAnswers));
  const createFaults = injectFaults(state.createFaults, identifyCaller, asaasAnswers);
  app.use((req, res, next) => (isCreatePayment(req) ? createFaults(req, res, next) : next()));
  app.use(jsonBody());
  app.use('/v3', requireAccessToken(state), customerRoutes(state), paymentRoutes(state, sender, payments), refundRoutes(state, settler, (p) => paymentJson(p, payments.invoiceBase)), webhookConfigRoutes(state), pixAutomaticRoutes({ state, sender, payments, json: (p) => paymentJson(p, payments.invoiceBase) }), transferRoutes(state, transfers.notify, transfers.options), subaccountRoutes(state));
  return finishApi(app, asaasAnswers, logger);
}

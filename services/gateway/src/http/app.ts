import express, { type Express } from 'express';
import { ApiKeyResolver } from '../auth/api-key.resolver';
import { cardFieldsRoutes } from '../routes/card-fields.routes';
import { cardsRoutes } from '../routes/cards.routes';
import { customersRoutes } from '../routes/customers.routes';
import { disputesRoutes } from '../routes/disputes.routes';
import { eventsRoutes } from '../routes/events.routes';
import { healthRoutes } from '../routes/health.routes';
import { integrationsRoutes } from '../routes/integrations.routes';
import { openApiRoutes } from '../routes/openapi.routes';
import { docsRoutes } from '../routes/docs.routes';
import { paymentPageRoutes } from '../routes/payment-page.routes';
import { trackingScriptRoutes } from '../routes/tracking-script.routes';
import { paymentsRoutes } from '../routes/payments.routes';
import { payoutsRoutes } from '../routes/payouts.routes';
import { subaccountsRoutes } from '../routes/subaccounts.routes';
import { providerAccountsRoutes } from '../routes/provider-accounts.routes';
import { providerWebhookRoutes } from '../routes/provider-webhooks.routes';
import { providersRoutes } from '../routes/providers.routes';
import { qrCodeRoutes } from '../routes/qr-code.routes';
import { reconciliationRoutes } from '../routes/reconciliation.routes';
import { analyticsRoutes } from '../routes/analytics.routes';
import { routingRulesRoutes } from '../routes/routing-rules.routes';
import { routingRoutes } from '../routes/routing.routes';
import { subscriptionsRoutes } from '../routes/subscriptions.routes';
import { webhookEndpointsRoutes } from '../routes/webhook-endpoints.routes';
import { withdrawalsRoutes } from '../routes/withdrawals.routes';
import { accessLogMiddleware } from './access-log.middleware';
import type { GatewayDeps, RouteContext } from './app.deps';
import { authMiddleware } from './auth.middleware';
import { dashboardStatic, defaultDashboardDirectory } from './dashboard-static';
import { errorHandler, notFoundHandler } from './error.handler';
import { httpMetricsMiddleware } from './http-metrics.middleware';
import { requestIdMiddleware } from './request-id.middleware';

/**
 * The REST edge as an express app, with every dependency injected: unit tests pass fakes,
 * end-to-end tests pass clients of the real services, `main.ts` passes production ones.
 *
 * Public routes (no key): /healthz, /readyz, /v1/openapi.json, /docs, /qr/{id}.png, /webhooks/providers/…,
 * the card fields (/v1/cards/fields.js, /cards/frame, /v1/cards/tokenize), the dashboard's static files (/dashboard).
 * Everything else under /v1 authenticates per route (so an unknown route is 404 with or without
 * a key), then checks the key kind, then parses the body.
 */
export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Bots poll payments; a 304 dance on JSON answers only adds confusion.
  app.set('etag', false);
  app.set('trust proxy', deps.settings.trustProxy);

  const resolver = new ApiKeyResolver(
    { accounts: deps.clients.accounts, logger: deps.logger },
    { ttlMs: deps.settings.keyCacheTtlMs, maxEntries: deps.settings.keyCacheMaxEntries },
  );
  const context: RouteContext = { ...deps, authenticate: authMiddleware(resolver) };

  if (deps.metrics) app.use(httpMetricsMiddleware(deps.metrics));
  app.use(requestIdMiddleware());
  app.use(accessLogMiddleware(deps.logger));
  app.use(healthRoutes(deps.readiness));
  app.use(openApiRoutes({ serverUrl: deps.settings.publicBaseUrl }));
  app.use(docsRoutes({ serverUrl: deps.settings.publicBaseUrl }));
  app.use(qrCodeRoutes(context));
  // The buyer's payment page (public), at the path of PAY_BASE_URL (`/pay`, or `/` on pay.<domain>).
  const payPath = new URL(deps.settings.payBaseUrl ?? `${deps.settings.publicBaseUrl}/pay`).pathname.replace(/\/+$/, '');
  app.use(payPath || '/', paymentPageRoutes(context, { mountedAtRoot: !payPath }));
  app.use(providerWebhookRoutes(context));
  // The card fields (public): fields.js, the iframe page, its tokenize call.
  app.use(cardFieldsRoutes(context));
  // The merchant-site tracking script (public): /v1/tracking.js.
  app.use(trackingScriptRoutes(context));
  app.use('/v1', paymentsRoutes(context));
  app.use('/v1', subscriptionsRoutes(context));
  app.use('/v1', payoutsRoutes(context));
  app.use('/v1', subaccountsRoutes(context));
  app.use('/v1', withdrawalsRoutes(context));
  app.use('/v1', eventsRoutes(context));
  app.use('/v1', webhookEndpointsRoutes(context));
  app.use('/v1', disputesRoutes(context));
  app.use('/v1', customersRoutes(context));
  app.use('/v1', cardsRoutes(context));
  app.use('/v1', providersRoutes(context));
  app.use('/v1', providerAccountsRoutes(context));
  app.use('/v1', routingRulesRoutes(context));
  app.use('/v1', routingRoutes(context));
  app.use('/v1', integrationsRoutes(context));
  app.use('/v1', reconciliationRoutes(context));
  app.use('/v1', analyticsRoutes(context));
  // The owner's dashboard (static files; /dashboard/api is passed on to its API).
  app.use('/dashboard', dashboardStatic({ directory: defaultDashboardDirectory() }));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}

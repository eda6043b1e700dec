import express, { type Express } from 'express';
import { ApiKeyResolver } from '../auth/api-key.resolver';
import { cardFieldsRoutes } from '../routes/card-fields.routes';
import { healthRoutes } from '../routes/health.routes';
import { openApiRoutes } from '../routes/openapi.routes';
import { docsRoutes } from '../routes/docs.routes';
import { paymentPageRoutes } from '../routes/payment-page.routes';
import { trackingScriptRoutes } from '../routes/tracking-script.routes';
import { providerWebhookRoutes } from '../routes/provider-webhooks.routes';
import { qrCodeRoutes } from '../routes/qr-code.routes';
import { dashboardApiRoutes } from '../dashboard-api/dashboard-api.routes';
import { accessLogMiddleware } from './access-log.middleware';
import type { GatewayDeps, RouteContext } from './app.deps';
import { authMiddleware } from './auth.middleware';
import { dashboardStatic, defaultDashboardDirectory } from './dashboard-static';
import { errorHandler, notFoundHandler } from './error.handler';
import { httpMetricsMiddleware } from './http-metrics.middleware';
import { requestIdMiddleware } from './request-id.middleware';
import { requestLogMiddleware } from '../request-logs/request-log.middleware';
import { v1Routes } from './v1-routes';

/**
 * The REST edge as an express app, with every dependency injected: unit tests pass fakes,
 * end-to-end tests pass clients of the real services, `main.ts` passes production ones.
 *
 * Public routes (no key): /healthz, /readyz, /v1/openapi.json, /docs, /qr/{id}.png, /webhooks/providers/…,
 * the card fields (/v1/cards/fields.js, /cards/frame, /v1/cards/tokenize), the dashboard's static files (/dashboard).
 * /dashboard/api authenticates by the owner's session cookie instead (dashboard-api/).
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
    {
      ttlMs: deps.settings.keyCacheTtlMs,
      maxEntries: deps.settings.keyCacheMaxEntries,
      // Cached answers are trusted only while revocation signals arrive (docs/decisions.md "Caches").
      ...(deps.keyRevocations ? { trusted: () => deps.keyRevocations?.live === true } : {}),
    },
  );
  deps.keyRevocations?.listen(
    (keyId) => resolver.dropKey(keyId),
    () => resolver.clear(),
  );
  const context: RouteContext = { ...deps, authenticate: authMiddleware(resolver, deps.oauth?.accessTokens) };

  if (deps.metrics) app.use(httpMetricsMiddleware(deps.metrics));
  app.use(requestIdMiddleware());
  app.use(accessLogMiddleware(deps.logger));
  if (deps.requestLog) app.use(requestLogMiddleware(deps.requestLog));
  app.use(healthRoutes(deps.readiness));
  app.use(openApiRoutes({ serverUrl: deps.settings.publicBaseUrl }));
  app.use(docsRoutes());
  app.use(qrCodeRoutes(context));
  // The buyer's payment page (public), at the path of PAY_BASE_URL (`/pay`, or `/` on pay.<domain>).
  const payPath = new URL(deps.settings.payBaseUrl ?? `${deps.settings.publicBaseUrl}/pay`).pathname.replace(/\/+$/, '');
  app.use(payPath || '/', paymentPageRoutes(context, { mountedAtRoot: !payPath }));
  app.use(providerWebhookRoutes(context));
  // The card fields (public): fields.js, the iframe page, its tokenize call.
  app.use(cardFieldsRoutes(context));
  // The merchant-site tracking script (public): /v1/tracking.js.
  app.use(trackingScriptRoutes(context));
  // OAuth apps (docs/oauth.md): the authorization server and its consent page.
  if (deps.oauth) app.use('/oauth', deps.oauth.router);
  // The authenticated public API: by API key here, by the owner's session at /dashboard/api/v1.
  app.use('/v1', v1Routes(context));
  // The owner's API for the dashboard (session cookie, CSRF, never an API key; docs/dashboard.md).
  app.use('/dashboard/api', dashboardApiRoutes(context, { keys: resolver, v1Routes, extraRoutes: deps.dashboardRoutes }));
  // The owner's dashboard (static files; /dashboard/api is passed on to its API).
  app.use('/dashboard', dashboardStatic({ directory: defaultDashboardDirectory() }));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}

import cookieParser from 'cookie-parser';
import { Router } from 'express';
import type { ApiKeyResolver } from '../auth/api-key.resolver';
import type { RouteContext } from '../http/app.deps';
import { buildDashboardOpenApiDocument } from './dashboard-api.openapi';
import { dashboardCsrf, dashboardHeaders, refuseApiKeys } from './dashboard-security';
import { keysRoutes } from './keys.routes';
import { ownerControlsRoutes } from './owner-controls.routes';
import { requireOwnerSession } from './owner-session';
import { ownerRoutes, signInRoutes } from './session.routes';
import { auditMutations, ownerCaller } from './v1-bridge';

export interface DashboardApiOptions {
  /** The gateway's key resolver: a revocation made here drops its cached answer before answering. */
  keys: Pick<ApiKeyResolver, 'dropKey'>;
  /** The public /v1 routers, built for a given context: mounted at /dashboard/api/v1 with the owner as caller. */
  v1Routes: (context: RouteContext) => Router;
  /** More session- and CSRF-protected routes (the OAuth apps of the dashboard), relative to /dashboard/api. */
  extraRoutes?: Router[];
}

/**
 * /dashboard/api: the owner's JSON API for the dashboard (docs/dashboard.md "Owner accounts and
 * sessions"). Same origin, session cookie, CSRF on every non-GET except sign-up and sign-in, and
 * never an API key.
 */
export function dashboardApiRoutes(context: RouteContext, options: DashboardApiOptions): Router {
  const { clients, logger } = context;
  const csrf = dashboardCsrf();
  const router = Router();
  router.use(...dashboardHeaders());
  router.use(refuseApiKeys());
  router.use(cookieParser());
  const document = buildDashboardOpenApiDocument({ serverUrl: context.settings.publicBaseUrl });
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(signInRoutes(clients));
  router.use(requireOwnerSession(clients));
  router.use(csrf.protect);
  router.use(ownerRoutes(clients, csrf.issue));
  router.use(keysRoutes(clients, options.keys));
  router.use(ownerControlsRoutes(clients));
  for (const extra of options.extraRoutes ?? []) router.use(extra);
  const bridge: RouteContext = { ...context, authenticate: ownerCaller() };
  router.use('/v1', auditMutations(clients, logger), options.v1Routes(bridge));
  return router;
}

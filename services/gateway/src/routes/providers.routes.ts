import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { rpcOptions } from '../http/request-context';
import { toProviderListJson } from '../mappers/provider.mapper';

/** GET /v1/providers: the provider catalog (credential fields, capabilities). Full keys only (§5.4). */
export function providersRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();

  router.get('/providers', authenticate, requireFullKey(), async (_req, res) => {
    res.json(toProviderListJson(await clients.providers.listProviders({}, rpcOptions(res))));
  });

  return router;
}

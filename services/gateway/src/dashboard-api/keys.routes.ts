import { accounts, common } from '@orquestra/contracts';
import { Router } from 'express';
import type { ApiKeyResolver } from '../auth/api-key.resolver';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { rpcOptions } from '../http/request-context';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { toApiKeyJson } from './dashboard.mappers';
import { dashboardMode } from './dashboard-mode';
import { CreateKeyBodySchema, DASHBOARD_FIELD_HINTS, KeyIdParamsSchema } from './dashboard.schemas';
import { actorOf, ownerOf } from './owner-session';

/**
 * The developer area's API keys: list (last 4, creator, last use), create (the secret answered
 * once), revoke. A revoked key fails at once: accounts refuses it and broadcasts the revocation to
 * every gateway replica, and this replica drops its own cached answer before it answers.
 */
export function keysRoutes(clients: Pick<DownstreamClients, 'accounts'>, resolver: Pick<ApiKeyResolver, 'dropKey'>): Router {
  const router = Router();

  router.get('/keys', async (req, res) => {
    const { keys } = await clients.accounts.listApiKeys({ merchant_id: ownerOf(res).merchant_id, mode: dashboardMode(req) }, rpcOptions(res));
    res.json({ data: keys.map(toApiKeyJson) });
  });

  router.post('/keys', jsonBodyMiddleware(), async (req, res) => {
    const body = parseOrThrow(CreateKeyBodySchema, req.body, 'body', DASHBOARD_FIELD_HINTS);
    const made = await clients.accounts.createApiKey(
      {
        merchant_id: ownerOf(res).merchant_id,
        mode: body.mode === 'live' ? common.Mode.MODE_LIVE : common.Mode.MODE_TEST,
        kind: body.restricted ? accounts.KeyKind.KEY_KIND_RESTRICTED : accounts.KeyKind.KEY_KIND_FULL,
        name: body.name,
        actor: actorOf(req, res),
      },
      rpcOptions(res),
    );
    res.status(201).json({ key: toApiKeyJson(made.key), secret: made.secret });
  });

  router.delete('/keys/:id', async (req, res) => {
    const { id } = parseOrThrow(KeyIdParamsSchema, req.params, 'query', { id: 'Informe o id da chave (key_…).' });
    const revoked = await clients.accounts.revokeApiKey({ merchant_id: ownerOf(res).merchant_id, key_id: id, actor: actorOf(req, res) }, rpcOptions(res));
    resolver.dropKey(id);
    res.json({ key: toApiKeyJson(revoked.key) });
  });
  return router;
}

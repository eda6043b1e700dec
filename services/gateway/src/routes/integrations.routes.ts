import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toIntegrationDeliveryJson, toIntegrationJson, toIntegrationKindJson } from '../mappers/integration.mapper';
import {
  CreateIntegrationSchema,
  INTEGRATION_FIELD_HINTS,
  IntegrationIdPathSchema,
  ListIntegrationDeliveriesQuerySchema,
  UpdateIntegrationSchema,
} from '../schemas/integration.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

/**
 * /v1/integration-kinds and /v1/integrations (§4 "Other endpoints", "Ad integrations"): the
 * merchant's integrations with ad tools, their sends and a test send. Full keys only, on every
 * route (§5.4: a restricted key cannot use integration routes). Credentials go in and never come
 * back: the answers show only their last 4 characters.
 */
export function integrationsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  const guard = [authenticate, requireFullKey()];
  const integrationIdOf = (req: Request) => pathIdOf(req, IntegrationIdPathSchema);
  const integrationOrThrow = <T extends { integration?: unknown }>(response: T) => {
    if (!response.integration) throw new AppError('not_found', { param: 'id' });
    return response.integration as NonNullable<T['integration']>;
  };

  router.get('/integration-kinds', ...guard, async (_req, res) => {
    const response = await clients.tracking.listIntegrationKinds({ caller: callerOf(res) }, rpcOptions(res));
    res.json({ object: 'list', data: response.kinds.map(toIntegrationKindJson), has_more: false });
  });

  router.post('/integrations', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(CreateIntegrationSchema, req.body, 'body', INTEGRATION_FIELD_HINTS);
    const response = await clients.tracking.createIntegration(
      {
        caller: callerOf(res),
        kind: input.kind,
        name: input.name ?? '',
        // Empty: the service uses the key's mode (a test key's integration receives test sales).
        sales: input.sales ?? '',
        options: { ...input.options },
        credentials: { ...input.credentials },
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      },
      rpcOptions(res),
    );
    const integration = integrationOrThrow(response);
    res.status(201).setHeader('Location', `/v1/integrations/${integration.id}`).json(toIntegrationJson(integration));
  });

  // Few per merchant (one per tool and pixel): one page, no cursor, as provider accounts.
  router.get('/integrations', ...guard, async (_req, res) => {
    const response = await clients.tracking.listIntegrations({ caller: callerOf(res) }, rpcOptions(res));
    res.json({ object: 'list', data: response.integrations.map(toIntegrationJson), has_more: false });
  });

  router.get('/integrations/:id', ...guard, async (req, res) => {
    const integrationId = integrationIdOf(req);
    const response = await aboutPathId(() => clients.tracking.getIntegration({ caller: callerOf(res), integration_id: integrationId }, rpcOptions(res)));
    res.json(toIntegrationJson(integrationOrThrow(response)));
  });

  router.patch('/integrations/:id', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const integrationId = integrationIdOf(req);
    const input = parseOrThrow(UpdateIntegrationSchema, req.body ?? {}, 'body', INTEGRATION_FIELD_HINTS);
    const response = await aboutPathId(() =>
      clients.tracking.updateIntegration(
        {
          caller: callerOf(res),
          integration_id: integrationId,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
          ...(input.sales !== undefined ? { sales: input.sales } : {}),
          options: { ...input.options },
          credentials: { ...input.credentials },
        },
        rpcOptions(res),
      ),
    );
    res.json(toIntegrationJson(integrationOrThrow(response)));
  });

  // Answers the integration as it was, with deleted: true (as DELETE /v1/cards/{id}).
  router.delete('/integrations/:id', ...guard, async (req, res) => {
    const integrationId = integrationIdOf(req);
    const response = await aboutPathId(() => clients.tracking.deleteIntegration({ caller: callerOf(res), integration_id: integrationId }, rpcOptions(res)));
    res.json({ ...toIntegrationJson(integrationOrThrow(response)), deleted: true });
  });

  router.get('/integrations/:id/deliveries', ...guard, async (req, res) => {
    const integrationId = integrationIdOf(req);
    const query = parseOrThrow(ListIntegrationDeliveriesQuerySchema, req.query, 'query', INTEGRATION_FIELD_HINTS);
    const response = await aboutPathId(() =>
      clients.tracking.listDeliveries(
        {
          caller: callerOf(res),
          integration_id: integrationId,
          limit: query.limit,
          starting_after: query.starting_after ?? '',
          payment_id: query.payment_id ?? '',
        },
        rpcOptions(res),
      ),
    );
    res.json({ object: 'list', data: response.deliveries.map(toIntegrationDeliveryJson), has_more: response.has_more });
  });

  // The send happens during the call (no retries): 200 with its outcome and the tool's answer.
  // The service answers not_found both for an unknown integration and for "no approved sale to
  // send yet" (same param): both are 404 param id here, the service's message telling which.
  router.post('/integrations/:id/test', ...guard, async (req, res) => {
    const integrationId = integrationIdOf(req);
    const response = await aboutPathId(() => clients.tracking.testIntegration({ caller: callerOf(res), integration_id: integrationId }, rpcOptions(res)));
    if (!response.delivery) throw new AppError('internal', { message: 'TestIntegration answered without a delivery' });
    res.json(toIntegrationDeliveryJson(response.delivery));
  });

  return router;
}

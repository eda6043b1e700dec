import { AppError } from '@orquestra/platform';
import { Router, type Request, type Response } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toWebhookDeliveryJson, toWebhookEndpointJson } from '../mappers/webhook.mapper';
import { WebhookDeliveryIdParamsSchema, WebhookEndpointIdParamsSchema } from '../schemas/path-params.schema';
import {
  CreateWebhookEndpointSchema,
  ListWebhookDeliveriesQuerySchema,
  ListWebhookEndpointsQuerySchema,
  UpdateWebhookEndpointSchema,
} from '../schemas/webhook-endpoint.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

/**
 * /v1/webhook-endpoints and /v1/webhook-deliveries (docs/events.md). Full keys only (§5.4: a
 * restricted key cannot touch webhooks). The signing secret is answered once, by create and
 * rotate-secret; nothing else ever shows it.
 */
export function webhookEndpointsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  const guard = [authenticate, requireFullKey()];
  const endpointIdOf = (req: Request) => pathIdOf(req, WebhookEndpointIdParamsSchema.shape.id);
  const deliveryIdOf = (req: Request) => pathIdOf(req, WebhookDeliveryIdParamsSchema.shape.id);
  const endpointOrThrow = <T extends { endpoint?: unknown }>(response: T) => {
    if (!response.endpoint) throw new AppError('not_found', { param: 'id' });
    return response.endpoint as NonNullable<T['endpoint']>;
  };

  router.post('/webhook-endpoints', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(CreateWebhookEndpointSchema, req.body, 'body');
    const response = await clients.webhooks.createWebhookEndpoint(
      { caller: callerOf(res), url: input.url, events: input.events, only_source: input.only_source ?? '', description: input.description ?? '' },
      rpcOptions(res),
    );
    const endpoint = endpointOrThrow(response);
    res.status(201).setHeader('Location', `/v1/webhook-endpoints/${endpoint.id}`).json({ ...toWebhookEndpointJson(endpoint), secret: response.secret });
  });

  router.get('/webhook-endpoints', ...guard, async (req, res) => {
    const query = parseOrThrow(ListWebhookEndpointsQuerySchema, req.query, 'query');
    const response = await clients.webhooks.listWebhookEndpoints(
      { caller: callerOf(res), limit: query.limit, starting_after: query.starting_after ?? '' },
      rpcOptions(res),
    );
    res.json({ object: 'list', data: response.data.map(toWebhookEndpointJson), has_more: response.has_more });
  });

  router.get('/webhook-endpoints/:id', ...guard, async (req, res) => {
    const endpointId = endpointIdOf(req);
    const response = await aboutPathId(() => clients.webhooks.getWebhookEndpoint({ caller: callerOf(res), endpoint_id: endpointId }, rpcOptions(res)));
    res.json(toWebhookEndpointJson(endpointOrThrow(response)));
  });

  const update = async (req: Request, res: Response) => {
    const endpointId = endpointIdOf(req);
    const input = parseOrThrow(UpdateWebhookEndpointSchema, req.body ?? {}, 'body');
    const response = await aboutPathId(() =>
      clients.webhooks.updateWebhookEndpoint(
        {
          caller: callerOf(res),
          endpoint_id: endpointId,
          ...(input.url !== undefined ? { url: input.url } : {}),
          events: input.events ?? [],
          set_events: input.events !== undefined,
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
          ...(input.only_source !== undefined ? { only_source: input.only_source ?? '' } : {}),
        },
        rpcOptions(res),
      ),
    );
    res.json(toWebhookEndpointJson(endpointOrThrow(response)));
  };
  // PATCH as for subaccounts (§4); POST as for routing rules. Same partial update.
  router.patch('/webhook-endpoints/:id', ...guard, jsonBodyMiddleware(), update);
  router.post('/webhook-endpoints/:id', ...guard, jsonBodyMiddleware(), update);

  router.delete('/webhook-endpoints/:id', ...guard, async (req, res) => {
    const endpointId = endpointIdOf(req);
    await aboutPathId(() => clients.webhooks.deleteWebhookEndpoint({ caller: callerOf(res), endpoint_id: endpointId }, rpcOptions(res)));
    res.json({ id: endpointId, object: 'webhook_endpoint', deleted: true });
  });

  router.post('/webhook-endpoints/:id/rotate-secret', ...guard, async (req, res) => {
    const endpointId = endpointIdOf(req);
    const response = await aboutPathId(() => clients.webhooks.rotateWebhookSecret({ caller: callerOf(res), endpoint_id: endpointId }, rpcOptions(res)));
    res.json({ ...toWebhookEndpointJson(endpointOrThrow(response)), secret: response.secret });
  });

  router.get('/webhook-endpoints/:id/deliveries', ...guard, async (req, res) => {
    const endpointId = endpointIdOf(req);
    const query = parseOrThrow(ListWebhookDeliveriesQuerySchema, req.query, 'query');
    const response = await aboutPathId(() =>
      clients.webhooks.listWebhookDeliveries(
        {
          caller: callerOf(res),
          endpoint_id: endpointId,
          status: query.status ?? '',
          event_id: query.event_id ?? '',
          limit: query.limit,
          starting_after: query.starting_after ?? '',
        },
        rpcOptions(res),
      ),
    );
    res.json({ object: 'list', data: response.data.map(toWebhookDeliveryJson), has_more: response.has_more });
  });

  router.get('/webhook-deliveries/:id', ...guard, async (req, res) => {
    const deliveryId = deliveryIdOf(req);
    const response = await aboutPathId(() => clients.webhooks.getWebhookDelivery({ caller: callerOf(res), delivery_id: deliveryId }, rpcOptions(res)));
    if (!response.delivery) throw new AppError('not_found', { param: 'id' });
    res.json(toWebhookDeliveryJson(response.delivery));
  });

  router.post('/webhook-deliveries/:id/resend', ...guard, async (req, res) => {
    const deliveryId = deliveryIdOf(req);
    const response = await aboutPathId(() => clients.webhooks.resendWebhookDelivery({ caller: callerOf(res), delivery_id: deliveryId }, rpcOptions(res)));
    if (!response.delivery) throw new AppError('not_found', { param: 'id' });
    res.status(202).json(toWebhookDeliveryJson(response.delivery));
  });

  return router;
}

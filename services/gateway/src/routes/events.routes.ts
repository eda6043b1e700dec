import { AppError } from '@orquestra/platform';
import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { callerOf, rpcOptions } from '../http/request-context';
import { toEventJson, toEventListJson } from '../mappers/event.mapper';
import { ListEventsQuerySchema } from '../schemas/list-events.schema';
import { EventIdParamsSchema } from '../schemas/path-params.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

/**
 * GET /v1/events and /v1/events/{id} (§6): the unified event log, newest first. Restricted keys
 * see only the events of what they created (the notifications service filters by the key).
 */
export function eventsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  router.get('/events', authenticate, async (req, res) => {
    const query = parseOrThrow(ListEventsQuerySchema, req.query, 'query');
    const response = await clients.notifications.listEvents(
      {
        caller: callerOf(res),
        limit: query.limit,
        starting_after: query.starting_after ?? '',
        type: query.type ?? '',
        resource_id: query.resource_id ?? '',
        payment_id: query.payment_id ?? '',
        created_gte: query['created[gte]'] ?? 0,
        created_lte: query['created[lte]'] ?? 0,
      },
      rpcOptions(res),
    );
    res.json(toEventListJson(response));
  });

  router.get('/events/:id', authenticate, async (req, res) => {
    const eventId = pathIdOf(req, EventIdParamsSchema.shape.id);
    const response = await aboutPathId(() => clients.notifications.getEvent({ caller: callerOf(res), event_id: eventId }, rpcOptions(res)));
    if (!response.event) throw new AppError('not_found', { param: 'id' });
    res.json(toEventJson(response.event));
  });
  return router;
}

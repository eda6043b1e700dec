import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toEventListJson } from '../mappers/event.mapper';
import { ListEventsQuerySchema } from '../schemas/list-events.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';

/** GET /v1/events (§6): the unified event log, newest first. Full keys only. */
export function eventsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  router.get('/events', authenticate, requireFullKey(), async (req, res) => {
    const query = parseOrThrow(ListEventsQuerySchema, req.query, 'query');
    const response = await clients.notifications.listEvents(
      {
        caller: callerOf(res),
        limit: query.limit,
        starting_after: query.starting_after ?? '',
        type: query.type ?? '',
        resource_id: '',
      },
      rpcOptions(res),
    );
    res.json(toEventListJson(response));
  });
  return router;
}

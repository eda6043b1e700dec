import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toRequestLogListJson } from '../mappers/request-log.mapper';
import { ListRequestLogsQuerySchema, REQUEST_LOG_FIELD_HINTS } from '../schemas/list-request-logs.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';

/**
 * GET /v1/request-logs (an extension of the spec, docs/cli.md): the API calls made with the
 * merchant's keys in the key's mode, newest first, kept 7 days. Full keys only: it shows every key's
 * calls (methods, paths with ids, statuses, request ids), never a body.
 */
export function requestLogsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  router.get('/request-logs', authenticate, requireFullKey(), async (req, res) => {
    const query = parseOrThrow(ListRequestLogsQuerySchema, req.query, 'query', REQUEST_LOG_FIELD_HINTS);
    const response = await clients.accounts.listRequestLogs(
      { caller: callerOf(res), limit: query.limit, starting_after: query.starting_after ?? '', status: query.status ?? '' },
      rpcOptions(res),
    );
    res.json(toRequestLogListJson(response));
  });
  return router;
}

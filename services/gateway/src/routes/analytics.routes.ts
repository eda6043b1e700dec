import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toAnalyticsOverviewJson } from '../mappers/analytics.mapper';
import { ANALYTICS_FIELD_HINTS, AnalyticsOverviewQuerySchema } from '../schemas/analytics.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';

/**
 * GET /v1/analytics/overview (§4 "Other endpoints", docs/analytics.md): volume, fees, counts and
 * approval rate of the key's mode, by provider account, by method and by São Paulo day, served by
 * the payments service from its pre-aggregated buckets. Full keys only: a restricted key reads
 * only the payments it created (§5.4), and the overview sums every payment of the merchant.
 */
export function analyticsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();

  router.get('/analytics/overview', authenticate, requireFullKey(), async (req, res) => {
    const range = parseOrThrow(AnalyticsOverviewQuerySchema, req.query, 'query', ANALYTICS_FIELD_HINTS);
    const caller = callerOf(res);
    const response = await clients.analytics.getOverview({ caller, start_date: range.start_date, end_date: range.end_date }, rpcOptions(res));
    res.json(toAnalyticsOverviewJson(response, caller.mode));
  });

  return router;
}

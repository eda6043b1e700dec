import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toRoutingSimulationJson, toSimulateRequest } from '../mappers/routing-simulation.mapper';
import { SIMULATE_ROUTING_HINTS, SimulateRoutingSchema } from '../schemas/routing-simulation.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';

/**
 * POST /v1/routing/simulate: the routing dry run. Nothing is created and no provider is called;
 * "no account would take it" is part of the answer (`error`), not an HTTP error. Full keys only.
 */
export function routingRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();

  router.post('/routing/simulate', authenticate, requireFullKey(), jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(SimulateRoutingSchema, req.body, 'body', SIMULATE_ROUTING_HINTS);
    const response = await clients.routing.simulate(toSimulateRequest(input, callerOf(res)), rpcOptions(res));
    res.json(toRoutingSimulationJson(response));
  });

  return router;
}

import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import {
  toDeletedRoutingRuleJson,
  toRoutingRuleJson,
  toRoutingRuleListJson,
  toRuleInput,
  toUpdatedRuleInput,
} from '../mappers/routing-rule.mapper';
import { RoutingRuleIdPathSchema } from '../schemas/path-params.schema';
import {
  ReorderRoutingRulesSchema,
  ROUTING_RULE_HINTS,
  RoutingRuleInputSchema,
  UpdateRoutingRuleSchema,
} from '../schemas/routing-rule.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

/**
 * /v1/routing-rules: the routing rules of the key's merchant and mode, evaluated in priority
 * order (the first enabled rule whose conditions match decides). Full keys only. The routing
 * service checks what needs the account list (targets must be connected accounts of this mode).
 */
export function routingRulesRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  const guard = [authenticate, requireFullKey()];
  const ruleIdOf = (req: Request) => pathIdOf(req, RoutingRuleIdPathSchema);

  router.get('/routing-rules', ...guard, async (_req, res) => {
    const { data } = await clients.routing.listRules({ caller: callerOf(res) }, rpcOptions(res));
    res.json(toRoutingRuleListJson(data));
  });

  router.post('/routing-rules', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(RoutingRuleInputSchema, req.body, 'body', ROUTING_RULE_HINTS);
    const { rule } = await clients.routing.createRule({ caller: callerOf(res), rule: toRuleInput(input) }, rpcOptions(res));
    if (!rule) throw new AppError('internal', { message: 'CreateRule answered without a rule' });
    res.status(201).setHeader('Location', `/v1/routing-rules/${rule.id}`).json(toRoutingRuleJson(rule));
  });

  // Registered before /:id so that "reorder" is never read as a rule id.
  router.post('/routing-rules/reorder', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(ReorderRoutingRulesSchema, req.body, 'body', ROUTING_RULE_HINTS);
    const { data } = await clients.routing.reorderRules({ caller: callerOf(res), rule_ids: input.ids }, rpcOptions(res));
    res.json(toRoutingRuleListJson(data));
  });

  router.get('/routing-rules/:id', ...guard, async (req, res) => {
    const ruleId = ruleIdOf(req);
    const { rule } = await aboutPathId(() => clients.routing.getRule({ caller: callerOf(res), rule_id: ruleId }, rpcOptions(res)));
    if (!rule) throw new AppError('not_found', { param: 'id' });
    res.json(toRoutingRuleJson(rule));
  });

  // UpdateRule replaces the whole rule, so the fields sent are laid over the current rule here.
  // Two concurrent partial updates of one rule may therefore lose one of them (last write wins).
  router.post('/routing-rules/:id', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const ruleId = ruleIdOf(req);
    const input = parseOrThrow(UpdateRoutingRuleSchema, req.body, 'body', ROUTING_RULE_HINTS);
    const caller = callerOf(res);
    const { rule: current } = await aboutPathId(() => clients.routing.getRule({ caller, rule_id: ruleId }, rpcOptions(res)));
    if (!current) throw new AppError('not_found', { param: 'id' });
    const { rule } = await aboutPathId(() =>
      clients.routing.updateRule({ caller, rule_id: ruleId, rule: toUpdatedRuleInput(current, input) }, rpcOptions(res)),
    );
    if (!rule) throw new AppError('not_found', { param: 'id' });
    res.json(toRoutingRuleJson(rule));
  });

  router.delete('/routing-rules/:id', ...guard, async (req, res) => {
    const ruleId = ruleIdOf(req);
    const { rule_id } = await aboutPathId(() => clients.routing.deleteRule({ caller: callerOf(res), rule_id: ruleId }, rpcOptions(res)));
    res.json(toDeletedRoutingRuleJson(rule_id || ruleId));
  });

  return router;
}

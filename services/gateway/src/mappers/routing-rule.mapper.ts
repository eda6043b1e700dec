import { modeName, type routing } from '@orquestra/contracts';
import type { DeletedRoutingRuleJson, RoutingRuleJson, RoutingRuleListJson } from '../schemas/routing-rule.response.schema';
import type { RoutingRuleInput, UpdateRoutingRuleInput } from '../schemas/routing-rule.schema';

type ConditionsInput = NonNullable<RoutingRuleInput['conditions']>;
type TargetInput = RoutingRuleInput['target'];

/** Public conditions → proto: absent lists are empty, absent or null bounds are 0 ("no bound"). */
function toProtoConditions(conditions: ConditionsInput | undefined): routing.RuleConditions {
  return {
    methods: [...(conditions?.methods ?? [])],
    amount_min: conditions?.amount_min ?? 0,
    amount_max: conditions?.amount_max ?? 0,
    metadata: (conditions?.metadata ?? []).map((condition) => ({ key: condition.key, value: condition.value ?? '' })),
    customer_has: [...(conditions?.customer_has ?? [])],
  };
}

/**
 * Public target → proto. `fallback` defaults to true here: proto3 cannot tell "not sent" from
 * false, so the gateway always sends the value it means.
 */
function toProtoTarget(target: TargetInput, fallback: boolean | undefined): routing.RuleTarget {
  const effective = target.fallback ?? fallback ?? true;
  return target.type === 'accounts'
    ? { type: 'accounts', accounts: [...target.accounts], weights: [], fallback: effective }
    : { type: 'weighted', accounts: [], weights: target.weights.map((w) => ({ account_id: w.account_id, percentage: w.percentage })), fallback: effective };
}

/** POST /v1/routing-rules → RuleInput. */
export function toRuleInput(input: RoutingRuleInput): routing.RuleInput {
  return {
    name: input.name,
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    conditions: toProtoConditions(input.conditions),
    target: toProtoTarget(input.target, input.fallback),
  };
}

/**
 * POST /v1/routing-rules/{id} → the whole RuleInput UpdateRule needs: the fields sent over the
 * current rule. `conditions` and `target` are replaced as a whole; `fallback` alone changes the
 * current target's fallback.
 */
export function toUpdatedRuleInput(current: routing.RoutingRule, input: UpdateRoutingRuleInput): routing.RuleInput {
  const currentTarget: routing.RuleTarget = current.target ?? { type: 'accounts', accounts: [], weights: [], fallback: true };
  const target = input.target
    ? toProtoTarget(input.target, input.fallback)
    : { ...currentTarget, fallback: input.fallback ?? currentTarget.fallback };
  return {
    name: input.name ?? current.name,
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    conditions: input.conditions ? toProtoConditions(input.conditions) : (current.conditions ?? toProtoConditions(undefined)),
    target,
  };
}

/** A stored rule as the public API shows it; 0 bounds and empty values read as null. */
export function toRoutingRuleJson(rule: routing.RoutingRule): RoutingRuleJson {
  const conditions = rule.conditions;
  const target = rule.target;
  return {
    id: rule.id,
    object: 'routing_rule',
    mode: modeName(rule.mode),
    name: rule.name,
    priority: rule.priority,
    enabled: rule.enabled,
    conditions: {
      methods: [...(conditions?.methods ?? [])],
      amount_min: conditions?.amount_min || null,
      amount_max: conditions?.amount_max || null,
      metadata: (conditions?.metadata ?? []).map((condition) => ({ key: condition.key, value: condition.value || null })),
      customer_has: [...(conditions?.customer_has ?? [])],
    },
    target:
      target?.type === 'weighted'
        ? { type: 'weighted', weights: target.weights.map((w) => ({ account_id: w.account_id, percentage: w.percentage })), fallback: target.fallback }
        : { type: 'accounts', accounts: [...(target?.accounts ?? [])], fallback: target?.fallback ?? true },
    created_at: rule.created_at,
    updated_at: rule.updated_at,
  };
}

export function toRoutingRuleListJson(rules: readonly routing.RoutingRule[]): RoutingRuleListJson {
  return { object: 'list', data: rules.map(toRoutingRuleJson), has_more: false };
}

export function toDeletedRoutingRuleJson(ruleId: string): DeletedRoutingRuleJson {
  return { id: ruleId, object: 'routing_rule', deleted: true };
}

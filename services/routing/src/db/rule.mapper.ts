import { modeFromName, type routing } from '@orquestra/contracts';
import type { RoutingRuleDoc } from './routing-rule.model';

export function toProtoRule(doc: RoutingRuleDoc): routing.RoutingRule {
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    name: doc.name,
    priority: doc.priority,
    enabled: doc.enabled,
    conditions: doc.conditions,
    target: doc.target,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

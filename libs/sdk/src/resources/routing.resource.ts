import type { Deleted, List } from '../types/common.types';
import type { CreateRoutingRuleParams, RoutingRule, RoutingSimulation, SimulateRoutingParams, UpdateRoutingRuleParams } from '../types/routing.types';
import { Resource, segment } from './resource';

/** /v1/routing-rules: the first enabled rule whose conditions hold decides the account order. */
export class RoutingRulesResource extends Resource {
  list(): Promise<List<RoutingRule>> {
    return this.call({ method: 'GET', path: '/v1/routing-rules' });
  }

  create(params: CreateRoutingRuleParams): Promise<RoutingRule> {
    return this.call({ method: 'POST', path: '/v1/routing-rules', body: params });
  }

  retrieve(id: string): Promise<RoutingRule> {
    return this.call({ method: 'GET', path: `/v1/routing-rules/${segment(id)}` });
  }

  update(id: string, params: UpdateRoutingRuleParams): Promise<RoutingRule> {
    return this.call({ method: 'POST', path: `/v1/routing-rules/${segment(id)}`, body: params });
  }

  delete(id: string): Promise<Deleted> {
    return this.call({ method: 'DELETE', path: `/v1/routing-rules/${segment(id)}` });
  }

  /** Every rule id of the mode, once, in the wanted order. */
  reorder(ids: string[]): Promise<List<RoutingRule>> {
    return this.call({ method: 'POST', path: '/v1/routing-rules/reorder', body: { ids } });
  }
}

/** /v1/routing/simulate: which accounts a payment would try, without creating it. */
export class RoutingResource extends Resource {
  simulate(params: SimulateRoutingParams): Promise<RoutingSimulation> {
    return this.call({ method: 'POST', path: '/v1/routing/simulate', body: params });
  }
}

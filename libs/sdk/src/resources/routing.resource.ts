import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Deleted, List } from '../types/common.types';
import type { CreateRoutingRuleParams, RoutingRule, RoutingSimulation, SimulateRoutingParams, UpdateRoutingRuleParams } from '../types/routing.types';
import { Resource, segment } from './resource';

/** /v1/routing-rules: the first enabled rule whose conditions hold decides the account order. */
export class RoutingRulesResource extends Resource {
  list(options?: RequestOptions): Promise<WithLastResponse<List<RoutingRule>>> {
    return this.call({ method: 'GET', path: '/v1/routing-rules' }, options);
  }

  create(params: CreateRoutingRuleParams, options?: RequestOptions): Promise<WithLastResponse<RoutingRule>> {
    return this.call({ method: 'POST', path: '/v1/routing-rules', body: params }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<RoutingRule>> {
    return this.call({ method: 'GET', path: `/v1/routing-rules/${segment(id)}` }, options);
  }

  update(id: string, params: UpdateRoutingRuleParams, options?: RequestOptions): Promise<WithLastResponse<RoutingRule>> {
    return this.call({ method: 'POST', path: `/v1/routing-rules/${segment(id)}`, body: params }, options);
  }

  delete(id: string, options?: RequestOptions): Promise<WithLastResponse<Deleted>> {
    return this.call({ method: 'DELETE', path: `/v1/routing-rules/${segment(id)}` }, options);
  }

  /** Every rule id of the mode, once, in the wanted order. */
  reorder(ids: string[], options?: RequestOptions): Promise<WithLastResponse<List<RoutingRule>>> {
    return this.call({ method: 'POST', path: '/v1/routing-rules/reorder', body: { ids } }, options);
  }
}

/** /v1/routing/simulate: which accounts a payment would try, without creating it. */
export class RoutingResource extends Resource {
  simulate(params: SimulateRoutingParams, options?: RequestOptions): Promise<WithLastResponse<RoutingSimulation>> {
    return this.call({ method: 'POST', path: '/v1/routing/simulate', body: params }, options);
  }
}

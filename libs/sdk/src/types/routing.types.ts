import type { Metadata, Mode, PaymentMethod } from './common.types';
import type { BreakerState } from './provider.types';
import type { CustomerInput } from './payment.types';

export type CustomerField = 'document' | 'email' | 'phone' | 'address';

export interface RuleConditions {
  methods: string[];
  amount_min: number | null;
  amount_max: number | null;
  metadata: Array<{ key: string; value: string | null }>;
  customer_has: string[];
}

export type RuleTarget =
  | { type: 'accounts'; accounts: string[]; fallback: boolean }
  | { type: 'weighted'; weights: Array<{ account_id: string; percentage: number }>; fallback: boolean };

export interface RoutingRule {
  id: string;
  object: 'routing_rule';
  mode: Mode;
  name: string;
  priority: number;
  enabled: boolean;
  conditions: RuleConditions;
  target: RuleTarget;
  created_at: string;
  updated_at: string;
}

export interface RuleConditionsInput {
  methods?: PaymentMethod[];
  amount_min?: number | null;
  amount_max?: number | null;
  metadata?: Array<{ key: string; value?: string | null }>;
  customer_has?: CustomerField[];
}

export type RuleTargetInput =
  | { type: 'accounts'; accounts: string[]; fallback?: boolean }
  | { type: 'weighted'; weights: Array<{ account_id: string; percentage: number }>; fallback?: boolean };

export interface CreateRoutingRuleParams {
  name: string;
  priority?: number;
  enabled?: boolean;
  conditions?: RuleConditionsInput;
  target: RuleTargetInput;
  fallback?: boolean;
}

export type UpdateRoutingRuleParams = Partial<CreateRoutingRuleParams>;

export interface SimulateRoutingParams {
  method: PaymentMethod;
  amount: number;
  metadata?: Metadata;
  customer?: Partial<CustomerInput>;
}

export interface RoutingCandidate {
  account_id: string;
  provider: string;
  rank: number;
  priority: number;
  reason: string;
}

export interface RoutingAccountVerdict {
  account_id: string;
  provider: string;
  verdict: 'chosen' | 'ranked_lower' | 'excluded';
  rank: number | null;
  reasons: string[];
  breaker_state: BreakerState;
  success_rate: number | null;
  recent_attempts: number;
}

export interface RoutingSimulation {
  object: 'routing_simulation';
  candidates: RoutingCandidate[];
  accounts: RoutingAccountVerdict[];
  matched_rule_id: string | null;
  /** The error creating the payment would give now; null when some account would take it. */
  error: { code: string; param: string | null; message: string } | null;
}

import { customerToProto, type common, type routing } from '@orquestra/contracts';
import { isErrorCode, MESSAGES_PT_BR } from '@orquestra/platform';
import { BREAKER_STATES } from '../schemas/provider-account.response.schema';
import { ROUTING_VERDICTS, type RoutingSimulationJson } from '../schemas/routing-simulation.response.schema';
import type { SimulateRoutingInput } from '../schemas/routing-simulation.schema';
import { oneOf } from './narrow';
import { nullIfEmpty } from './nullable';

/** POST /v1/routing/simulate → Simulate. */
export function toSimulateRequest(input: SimulateRoutingInput, caller: common.Caller): routing.SimulateRequest {
  return {
    caller,
    method: input.method,
    amount: input.amount,
    metadata: { ...input.metadata },
    customer: input.customer && customerToProto(input.customer),
  };
}

/** The simulation's error: the code and param Route would answer, with the catalogue's text. */
function toSimulationError(response: routing.SimulateResponse): RoutingSimulationJson['error'] {
  if (!response.error_code) return null;
  if (!isErrorCode(response.error_code)) throw new Error(`routing answered an undocumented error_code: ${JSON.stringify(response.error_code)}`);
  return { code: response.error_code, param: nullIfEmpty(response.error_param), message: MESSAGES_PT_BR[response.error_code] };
}

/**
 * The dry run as the routing service decided it. Proto sentinels become null: rank 0 (excluded)
 * and success rate -1 (not enough recent attempts to judge).
 */
export function toRoutingSimulationJson(response: routing.SimulateResponse): RoutingSimulationJson {
  return {
    object: 'routing_simulation',
    candidates: response.candidates.map((candidate, index) => ({
      account_id: candidate.account_id,
      provider: candidate.provider,
      rank: index + 1,
      priority: candidate.priority,
      reason: candidate.reason,
    })),
    accounts: response.accounts.map((verdict) => ({
      account_id: verdict.account_id,
      provider: verdict.provider,
      verdict: oneOf(ROUTING_VERDICTS, verdict.verdict, 'verdict'),
      rank: verdict.rank > 0 ? verdict.rank : null,
      reasons: [...verdict.reasons],
      breaker_state: oneOf(BREAKER_STATES, verdict.breaker_state || 'closed', 'breaker_state'),
      success_rate: verdict.success_rate >= 0 ? verdict.success_rate : null,
      recent_attempts: verdict.recent_attempts,
    })),
    matched_rule_id: nullIfEmpty(response.matched_rule_id),
    error: toSimulationError(response),
  };
}

/**
 * The failover goal: while account A fails completely, clients see no error and the p99 latency
 * stays within 1.5× the healthy run's. Client-visible errors are responses other than 201 plus
 * requests that got no response at all (resets, client timeouts).
 */
import type { LoadResult } from './load';

export const FAILOVER_P99_LIMIT = 1.5;

export interface FailoverGoal {
  ok: boolean;
  healthyErrors: number;
  failoverErrors: number;
  healthyP99Ms: number;
  failoverP99Ms: number;
  /** failover p99 / healthy p99. */
  p99Ratio: number;
  limit: number;
}

export const clientErrors = (load: LoadResult): number => load.failedResponses + load.transportErrorCount;

/**
 * `healthy` is the reference: the healthy run before the failover run, or — when a healthy run
 * after it exists — the mean of the two p99s. The store's speed depends on how much it holds (the
 * embedded store answers non-unique filters by scanning, docs/performance.md), so a run later in
 * the benchmark is slower for that reason alone; bracketing the failover run cancels that out.
 */
export function failoverGoal(healthy: LoadResult, failover: LoadResult, healthyAfter?: LoadResult): FailoverGoal {
  const healthyP99Ms = healthyAfter ? (healthy.latency.p99 + healthyAfter.latency.p99) / 2 : healthy.latency.p99;
  const failoverP99Ms = failover.latency.p99;
  const p99Ratio = healthyP99Ms > 0 ? failoverP99Ms / healthyP99Ms : Number.POSITIVE_INFINITY;
  const failoverErrors = clientErrors(failover);
  return {
    ok: failoverErrors === 0 && p99Ratio <= FAILOVER_P99_LIMIT && failover.responses > 0,
    healthyErrors: clientErrors(healthy),
    failoverErrors,
    healthyP99Ms,
    failoverP99Ms,
    p99Ratio,
    limit: FAILOVER_P99_LIMIT,
  };
}

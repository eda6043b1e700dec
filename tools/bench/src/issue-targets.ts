/**
 * The targets of issue 11 ("a store with MongoDB's guarantees … the cost of a payment cut
 * tenfold"), each with what this run measured and whether it was met. A target the run did not
 * measure (a run skipped by an option) is reported as such, never as met.
 */
import type { FailoverGoal } from './goal';
import type { PhaseReport } from './report';
import { servicesCpuPerPayment } from './per-payment';

export interface TargetVerdict {
  target: string;
  measured: string;
  /** undefined: not measured in this run. */
  met: boolean | undefined;
}

export const TARGETS = {
  paymentsPerS: 300,
  overheadP99Ms: 50,
  webhookP99Ms: 500,
  servicesCpuMsPerPayment: 5,
  stackRssBytes: 1.5 * 1024 ** 3,
} as const;

const gatewayRuns = (phases: PhaseReport[]) => phases.filter((p) => p.phase === 'healthy' || p.phase === 'half_rate' || p.phase === 'healthy_after');
const fixed = (n: number, digits = 0) => n.toFixed(digits);

export function issueTargets(input: { phases: PhaseReport[]; overheadMs: { p99: number } | undefined; goal: FailoverGoal | undefined }): TargetVerdict[] {
  const { phases } = input;
  const healthy = phases.filter((p) => p.phase === 'healthy');
  const verdicts: TargetVerdict[] = [];

  const best = healthy.reduce<PhaseReport | undefined>((top, p) => (!top || p.load.successesPerS > top.load.successesPerS ? p : top), undefined);
  const bestWebhooksAll = best?.webhooks ? best.webhooks.delivered === best.webhooks.expected : false;
  verdicts.push({
    target: `≥ ${TARGETS.paymentsPerS} Pix payments/s sustained with webhooks on`,
    measured: best
      ? `${fixed(best.load.successesPerS, 1)}/s (${best.id}, ${best.load.durationS} s; webhooks ${best.webhooks?.delivered ?? 0}/${best.webhooks?.expected ?? 0})`
      : 'no healthy run',
    met: best ? best.load.successesPerS >= TARGETS.paymentsPerS && bestWebhooksAll : undefined,
  });

  const half = phases.find((p) => p.phase === 'half_rate');
  verdicts.push({
    target: `p99 platform overhead (gateway p99 − emulator-alone p99) ≤ ${TARGETS.overheadP99Ms} ms at half the maximum rate`,
    measured:
      input.overheadMs && half
        ? `${fixed(input.overheadMs.p99, 1)} ms at ${half.load.ratePerS ?? '?'}/s (gateway p99 ${fixed(half.load.successLatency.p99, 1)} ms, emulator alone ${fixed(half.load.successLatency.p99 - input.overheadMs.p99, 1)} ms)`
        : 'not measured (half-rate or emulator-alone run missing)',
    met: input.overheadMs ? input.overheadMs.p99 <= TARGETS.overheadP99Ms : undefined,
  });

  const withWebhooks = gatewayRuns(phases).flatMap((p) => (p.webhooks && p.webhooks.expected > 0 ? [{ id: p.id, ...p.webhooks }] : []));
  verdicts.push({
    target: `event→webhook p99 ≤ ${TARGETS.webhookP99Ms} ms; all webhooks arrive (every healthy run)`,
    measured: withWebhooks.map((w) => `${w.id}: p99 ${fixed(w.latency.p99)} ms, ${w.delivered}/${w.expected}`).join('; ') || 'no gateway run',
    met: withWebhooks.length > 0 ? withWebhooks.every((w) => w.delivered === w.expected && w.latency.p99 <= TARGETS.webhookP99Ms) : undefined,
  });

  const costed = gatewayRuns(phases).filter((p) => p.payments > 0);
  verdicts.push({
    target: `Node.js services together ≤ ${TARGETS.servicesCpuMsPerPayment} ms CPU per payment (every healthy run)`,
    measured: costed.map((p) => `${p.id}: ${fixed(servicesCpuPerPayment(p), 1)} ms`).join('; ') || 'no gateway run',
    met: costed.length > 0 ? costed.every((p) => servicesCpuPerPayment(p) <= TARGETS.servicesCpuMsPerPayment) : undefined,
  });

  const goal = input.goal;
  verdicts.push({
    target: `failover run: 0 client errors, p99 ≤ ${goal?.limit ?? 1.5}× healthy`,
    measured: goal
      ? `${goal.failoverErrors} client errors, p99 ${fixed(goal.failoverP99Ms, 1)} ms vs ${fixed(goal.healthyP99Ms, 1)} ms = ${goal.p99Ratio.toFixed(2)}×`
      : 'not measured (--skip-failover)',
    met: goal?.ok,
  });

  const peak = Math.max(0, ...phases.map((p) => p.resources.peakStackAndInfraRssBytes));
  verdicts.push({
    target: 'whole stack (services, store, broker, emulators) ≤ 1.5 GiB RSS',
    measured: `peak ${fixed(peak / 1024 ** 2)} MiB summed over the load runs`,
    met: phases.length > 0 ? peak <= TARGETS.stackRssBytes : undefined,
  });
  return verdicts;
}

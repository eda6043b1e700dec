/**
 * One measured phase: optional warm-up, then the load with RSS/CPU sampling, then a wait until the
 * stack is idle again. Around the phase (from before the load until idle, so the work a payment
 * leaves behind — outbox relay, consumers, webhook delivery — counts too): the emulator's charges
 * per account, the CPU time of every watched process, and the services' metrics (time per gRPC
 * method, calls per provider account, store commands, broker messages).
 */
import os from 'node:os';
import { chargesByClient, emulatorStats } from './emulator-control';
import { runLoad, type LoadTarget } from './load';
import { runPacedLoad } from './paced-load';
import type { BenchOptions, PhaseName } from './options';
import { waitUntilQuiet } from './quiet';
import type { PhaseReport } from './report';
import { cpuMsSince, cpuTicksNow, inStack, ResourceSampler, type WatchedProcess } from './resource-sampler';
import { busMessages, methodTimes, providerCalls, snapshotMetrics, storeCommands } from './service-metrics';
import type { WebhookProbe } from './webhook-probe';
import { cpuStatDelta, type CpuStat } from './stack-api';

export const log = (message: string) => console.error(`[bench] ${message}`);

export interface PhaseContext {
  options: BenchOptions;
  watched: WatchedProcess[];
  efiControlUrl: string;
  /** The services' Prometheus ports. */
  metricsPorts: number[];
  /** Emulator client ids and provider account ids → A / B. */
  accountNames: Record<string, string>;
  /** Event-to-webhook latency of the gateway phases. */
  webhooks?: WebhookProbe;
  /** With --cpu-limit: the replicas' cgroups, whose throttling each phase reports. */
  cgroups?: { stats(): Record<string, CpuStat> };
}

/** What one phase loads, and how. */
export interface PhaseSpec {
  phase: PhaseName;
  label: string;
  target: LoadTarget;
  connections: number;
  /** Requests per second, evenly spaced (open loop, at most `connections` in flight); absent: closed loop. */
  ratePerS?: number;
  /** Unmeasured seconds of the same load first. */
  warmupS: number;
}

const rename = (counts: Record<string, number>, names: Record<string, string>) =>
  Object.fromEntries(Object.entries(counts).map(([key, n]) => [names[key] ?? key, n]));

/** Waits for the stack to go idle; answers the seconds it took. */
export async function settle(watched: WatchedProcess[]): Promise<number> {
  const pids = watched.filter(inStack).map((w) => w.pid);
  const quiet = await waitUntilQuiet(pids, { thresholdPercent: 25, windowMs: 1_000, maxMs: 120_000 });
  log(`stack ${quiet.quiet ? 'idle' : 'still busy'} after ${(quiet.waitedMs / 1000).toFixed(0)} s`);
  return quiet.waitedMs / 1000;
}

/** `healthy c8`, `half_rate 150/s`: a phase's short name, unique within a run. */
export function phaseId(spec: Pick<PhaseSpec, 'phase' | 'connections' | 'ratePerS'>): string {
  return spec.ratePerS !== undefined ? `${spec.phase} ${spec.ratePerS}/s` : `${spec.phase} c${spec.connections}`;
}

export async function measurePhase(spec: PhaseSpec, context: PhaseContext): Promise<PhaseReport> {
  const { options } = context;
  const { label, target } = spec;
  const shape = { connections: spec.connections, timeoutS: options.timeoutS };
  const { ratePerS } = spec;
  const load = (durationS: number) => (ratePerS !== undefined ? runPacedLoad(target, { ...shape, durationS, ratePerS }) : runLoad(target, { ...shape, durationS }));
  if (spec.warmupS > 0) {
    log(`${label}: warm-up ${spec.warmupS} s…`);
    await load(spec.warmupS);
    // The warm-up's last requests are cut off at the client but still run in the stack.
    await settle(context.watched);
  }
  const snapshot = () => Promise.all([emulatorStats(context.efiControlUrl), snapshotMetrics(context.metricsPorts)]);
  const [statsBefore, metricsBefore] = await snapshot();
  const cpuStart = cpuTicksNow(context.watched);
  const throttlingStart = context.cgroups?.stats();
  log(`${label}: measuring ${options.durationS} s ${ratePerS !== undefined ? `at ${ratePerS} requests/s (≤ ${spec.connections} connections)` : `with ${spec.connections} connections`}…`);
  const sampler = new ResourceSampler(context.watched, options.sampleMs, os.availableParallelism());
  // Only payments of the measured run count (the warm-up's are left out).
  const probe = target.onSuccess ? context.webhooks : undefined;
  probe?.reset();
  sampler.start();
  const measured = await load(options.durationS);
  const resources = sampler.stop();
  const errors = measured.failedResponses + measured.transportErrorCount;
  log(`${label}: ${measured.successes} × 201 (${measured.successesPerS.toFixed(1)}/s), ${errors} errors, p99 ${measured.latency.p99.toFixed(1)} ms`);
  const webhooks = probe ? await probe.collect() : undefined;
  if (webhooks) {
    log(`${label}: ${webhooks.delivered}/${webhooks.expected} payment.created webhooks, event→webhook p50 ${webhooks.latency.p50.toFixed(0)} ms, p99 ${webhooks.latency.p99.toFixed(0)} ms`);
  }
  const settleS = await settle(context.watched);
  const cpuMs = cpuMsSince(context.watched, cpuStart);
  const throttling = throttlingStart && context.cgroups ? throttlingSince(throttlingStart, context.cgroups.stats()) : undefined;
  if (throttling) log(`${label}: throttled ${throttlingLine(throttling)}`);
  const [statsAfter, metricsAfter] = await snapshot();
  const chargesByAccount = rename(chargesByClient(statsBefore, statsAfter), context.accountNames);
  return {
    id: phaseId(spec),
    webhooks,
    phase: spec.phase,
    label,
    load: measured,
    resources,
    chargesByAccount,
    // Each Pix payment creates exactly one charge at the emulator, including those still in flight
    // when the load stopped (their work is in the CPU and counters too).
    payments: Object.values(chargesByAccount).reduce((sum, n) => sum + n, 0),
    cpuMs,
    storeCommands: storeCommands(metricsBefore, metricsAfter),
    busMessages: busMessages(metricsBefore, metricsAfter),
    providerCalls: providerCalls(metricsBefore, metricsAfter, context.accountNames),
    methodTimes: methodTimes(metricsBefore, metricsAfter, context.accountNames),
    settleS,
    ...(throttling ? { throttling } : {}),
  };
}

function throttlingSince(before: Record<string, CpuStat>, after: Record<string, CpuStat>): Record<string, CpuStat> {
  const zero: CpuStat = { periods: 0, throttledPeriods: 0, throttledMs: 0 };
  return Object.fromEntries(Object.entries(after).map(([cgroup, stat]) => [cgroup, cpuStatDelta(before[cgroup] ?? zero, stat)]));
}

/** `payments-1 62% of periods (9.1 s), …`, most throttled first. */
function throttlingLine(throttling: Record<string, CpuStat>): string {
  return Object.entries(throttling)
    .sort(([, a], [, b]) => b.throttledMs - a.throttledMs)
    .map(([cgroup, s]) => `${cgroup} ${s.periods > 0 ? ((100 * s.throttledPeriods) / s.periods).toFixed(0) : 0}% of periods (${(s.throttledMs / 1000).toFixed(1)} s)`)
    .join(', ');
}

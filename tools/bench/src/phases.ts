/**
 * One measured phase: optional warm-up, then the load with RSS/CPU sampling, the emulator's
 * charges per account and the services' metrics (time per gRPC method, calls per provider account)
 * around it, then a wait until the stack is idle again so that the next phase starts clean.
 */
import os from 'node:os';
import { chargesByClient, emulatorStats } from './emulator-control';
import { runLoad, type LoadTarget } from './load';
import type { BenchOptions, PhaseName } from './options';
import { waitUntilQuiet } from './quiet';
import type { PhaseReport } from './report';
import { ResourceSampler, type WatchedProcess } from './resource-sampler';
import { methodTimes, providerCalls, snapshotMetrics } from './service-metrics';
import type { WebhookProbe } from './webhook-probe';

export const log = (message: string) => console.error(`[bench] ${message}`);

export interface PhaseContext {
  options: BenchOptions;
  watched: WatchedProcess[];
  efiControlUrl: string;
  /** The services' Prometheus ports. */
  metricsPorts: number[];
  /** Emulator client ids and provider account ids → A / B. */
  accountNames: Record<string, string>;
  /** Event-to-webhook latency of the gateway phases (absent with --skip-webhooks). */
  webhooks?: WebhookProbe;
}

const rename = (counts: Record<string, number>, names: Record<string, string>) =>
  Object.fromEntries(Object.entries(counts).map(([key, n]) => [names[key] ?? key, n]));

/** Waits for the stack to go idle; answers the seconds it took. */
export async function settle(watched: WatchedProcess[]): Promise<number> {
  const pids = watched.filter((w) => w.group === 'stack').map((w) => w.pid);
  const quiet = await waitUntilQuiet(pids, { thresholdPercent: 25, windowMs: 1_000, maxMs: 120_000 });
  log(`stack ${quiet.quiet ? 'idle' : 'still busy'} after ${(quiet.waitedMs / 1000).toFixed(0)} s`);
  return quiet.waitedMs / 1000;
}

export async function measurePhase(phase: PhaseName, label: string, target: LoadTarget, context: PhaseContext, warmupS: number): Promise<PhaseReport> {
  const { options } = context;
  const shape = { connections: options.connections, timeoutS: options.timeoutS };
  if (warmupS > 0) {
    log(`${label}: warm-up ${warmupS} s…`);
    await runLoad(target, { ...shape, durationS: warmupS });
    // The warm-up's last requests are cut off at the client but still run in the stack.
    await settle(context.watched);
  }
  const snapshot = () => Promise.all([emulatorStats(context.efiControlUrl), snapshotMetrics(context.metricsPorts)]);
  const [statsBefore, metricsBefore] = await snapshot();
  log(`${label}: measuring ${options.durationS} s with ${options.connections} connections…`);
  const sampler = new ResourceSampler(context.watched, options.sampleMs, os.availableParallelism());
  // Only payments of the measured run count (the warm-up's are left out).
  const probe = target.onSuccess ? context.webhooks : undefined;
  probe?.reset();
  sampler.start();
  const load = await runLoad(target, { ...shape, durationS: options.durationS });
  const resources = sampler.stop();
  const [statsAfter, metricsAfter] = await snapshot();
  const errors = load.failedResponses + load.transportErrorCount;
  log(`${label}: ${load.successes} × 201 (${load.successesPerS.toFixed(1)}/s), ${errors} errors, p99 ${load.latency.p99.toFixed(1)} ms`);
  const webhooks = probe ? await probe.collect() : undefined;
  if (webhooks) {
    log(`${label}: ${webhooks.delivered}/${webhooks.expected} payment.created webhooks, event→webhook p50 ${webhooks.latency.p50.toFixed(0)} ms, p99 ${webhooks.latency.p99.toFixed(0)} ms`);
  }
  return {
    webhooks,
    phase,
    label,
    load,
    resources,
    chargesByAccount: rename(chargesByClient(statsBefore, statsAfter), context.accountNames),
    providerCalls: providerCalls(metricsBefore, metricsAfter, context.accountNames),
    methodTimes: methodTimes(metricsBefore, metricsAfter, context.accountNames),
    settleS: await settle(context.watched),
  };
}

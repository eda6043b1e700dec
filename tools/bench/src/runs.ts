/**
 * The sequence of a benchmark: a healthy run at each connection count (after a warm-up), the same
 * load paced at half the best healthy rate, the failover run (account A in outage at the emulator
 * from its first request, so it measures the breaker opening too, not only the steady state) and
 * a healthy run after it, the emulator alone at the half rate, then the list-latency runs.
 * Collects the checks of each.
 */
import type { BenchStack } from './bench-stack';
import { distributionCheck, chargesCheck, latestPaymentCheck, webhookChecks, type Check } from './checks';
import { clearFaults, startOutage } from './emulator-control';
import { failoverGoal } from './goal';
import type { AnalyticsLatencyRun } from './analytics-latency';
import { measureListLatency, type ListLatencyRun } from './list-latency';
import { log, measurePhase, settle, type PhaseContext } from './phases';
import type { PhaseReport } from './report';
import { emulatorTarget, emulatorToken, gatewayTarget } from './targets';
import { WebhookProbe } from './webhook-probe';

export interface RunsResult {
  phases: PhaseReport[];
  lists: ListLatencyRun[];
  checks: Check[];
  goal: ReturnType<typeof failoverGoal> | undefined;
}

/** What the list-latency runs need beyond the phases' context. */
export interface ListContext {
  mongoUrl: string;
  storePid: number | undefined;
}

/**
 * An analytics run counts only if the rebuild finished, every overview answered 200, and the
 * longest range holds exactly the merchant's payments (the buckets really cover what was seeded).
 */
function analyticsChecks(run: AnalyticsLatencyRun, requests: number): Check[] {
  const failed = run.queries.filter((q) => q.errors > 0);
  const longest = run.queries.find((q) => q.query === 'days=366');
  return [
    { name: `analytics at ${run.payments} payments: rebuild-analytics exited 0`, ok: run.rebuildOk, detail: `${run.rebuildS.toFixed(1)} s` },
    {
      name: `analytics at ${run.payments} payments: every GET /v1/analytics/overview answered 200`,
      ok: failed.length === 0,
      detail: failed.map((q) => `?${q.query}: ${q.errors} errors`).join(', ') || `${run.queries.length} queries × ${requests}`,
    },
    {
      name: `analytics at ${run.payments} payments: the last 366 days count every payment once`,
      ok: longest?.created === run.payments,
      detail: `totals.created ${longest?.created ?? 'not measured'}`,
    },
  ];
}

function phaseChecks(report: PhaseReport, expectedAccount: string): Check[] {
  const charges = Object.values(report.chargesByAccount).reduce((sum, n) => sum + n, 0);
  return [
    chargesCheck(report.label, charges, report.load.successes),
    distributionCheck(report.label, report.chargesByAccount, expectedAccount),
    ...webhookChecks(report.label, report.webhooks),
  ];
}

/** Waits (up to 40 s) until no breaker is open or half-open in the providers service's /metrics. */
async function waitForBreakerClosed(metricsPort: number): Promise<void> {
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text(), () => '');
    const stuck = text.split('\n').some((line) => /^orquestra_provider_breaker_state\{.*state="(open|half_open)".*\} 1$/.test(line));
    if (text && !stuck) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log('warning: a breaker was still not closed after 40 s');
}

export async function runAll(bench: BenchStack, context: PhaseContext, lists: ListContext, runId: string): Promise<RunsResult> {
  const { stack, seed } = bench;
  // A merchant's webhook receiver for payment.created: event-to-webhook latency under this load.
  const probe = new WebhookProbe(`http://127.0.0.1:${stack.ports.gateway}`, seed.testKey);
  await probe.start();
  try {
    return await measureAll(bench, { ...context, webhooks: probe }, lists, runId);
  } finally {
    await probe.stop();
  }
}

async function measureAll(bench: BenchStack, context: PhaseContext, lists: ListContext, runId: string): Promise<RunsResult> {
  const { stack, seed } = bench;
  const { options } = context;
  const phases: PhaseReport[] = [];
  const checks: Check[] = [];
  const probe = context.webhooks;
  const gateway = { ...gatewayTarget({ port: stack.ports.gateway, testKey: seed.testKey, runId }), ...(probe ? { onSuccess: (body: string) => probe.onCreated(body) } : {}) };
  const [firstConnections = 8] = options.connections;
  const mostConnections = Math.max(...options.connections);
  await settle(context.watched);

  for (const [i, connections] of options.connections.entries()) {
    const label = `healthy (A and B up), ${connections} connections`;
    const healthy = await measurePhase({ phase: 'healthy', label, target: gateway, connections, warmupS: i === 0 ? options.warmupS : 0 }, context);
    phases.push(healthy);
    checks.push(...phaseChecks(healthy, 'A'));
    if (i === 0) checks.push(await latestPaymentCheck({ port: stack.ports.gateway, testKey: seed.testKey, runId }));
  }

  // Half the best closed-loop rate, paced: the platform's latency when it is not saturated.
  const bestRate = Math.max(...phases.map((p) => p.load.successesPerS));
  const halfRate = Math.max(1, Math.round(bestRate / 2));
  const half = await measurePhase({ phase: 'half_rate', label: `healthy at half the best rate (${halfRate}/s)`, target: gateway, connections: mostConnections, ratePerS: halfRate, warmupS: 0 }, context);
  phases.push(half);
  checks.push(...phaseChecks(half, 'A'));

  let goal: RunsResult['goal'];
  if (!options.skipFailover) {
    // The first healthy run has the failover run's concurrency.
    const [reference] = phases;
    log(`failover: outage of account A (emulator client ${seed.emulatorClient.clientId})`);
    await startOutage(stack.efiControlUrl, seed.emulatorClient.clientId);
    let failover: PhaseReport;
    try {
      failover = await measurePhase({ phase: 'failover', label: `failover (A down), ${firstConnections} connections`, target: gateway, connections: firstConnections, warmupS: 0 }, context);
      phases.push(failover);
      checks.push(...phaseChecks(failover, 'B'));
    } finally {
      await clearFaults(stack.efiControlUrl);
    }
    // A is back: its breaker closes after the providers service's own recovery trial. A second
    // healthy run at the same concurrency brackets the failover run (the store holds more by then),
    // and shows payments return to A.
    await waitForBreakerClosed(stack.ports.providersMetrics);
    const after = await measurePhase({ phase: 'healthy_after', label: `healthy again (A back), ${firstConnections} connections`, target: gateway, connections: firstConnections, warmupS: 0 }, context);
    phases.push(after);
    checks.push(...phaseChecks(after, 'A'));
    if (reference) goal = failoverGoal(reference.load, failover.load, after.load);
  }

  if (options.emulatorBaseline) {
    const client = seed.emulatorClient;
    const token = await emulatorToken({ port: stack.ports.efiApi, certDir: bench.certDir, client });
    const target = emulatorTarget({ port: stack.ports.efiApi, certDir: bench.certDir, token, pixKey: client.pixKey, runId });
    const label = `emulator alone (PUT /v2/cob, mTLS) at ${halfRate}/s`;
    const emulator = await measurePhase({ phase: 'emulator', label, target, connections: mostConnections, ratePerS: halfRate, warmupS: options.warmupS }, context);
    phases.push(emulator);
    checks.push(chargesCheck(emulator.label, Object.values(emulator.chargesByAccount).reduce((sum, n) => sum + n, 0), emulator.load.successes));
  }

  const listRuns =
    options.listSizes.length === 0
      ? []
      : await measureListLatency({
          sizes: options.listSizes,
          requests: options.listRequests,
          baseUrl: `http://127.0.0.1:${stack.ports.gateway}`,
          testKey: seed.testKey,
          mongoUrl: lists.mongoUrl,
          dbName: `${bench.dbPrefix}payments`,
          runId,
          storePid: lists.storePid,
          ...(options.analyticsRequests > 0
            ? { analytics: { requests: options.analyticsRequests, merchantId: seed.merchantId, paymentsEnv: stack.env['payments'] ?? {} } }
            : {}),
        });
  for (const run of listRuns) {
    const failed = run.queries.filter((q) => q.errors > 0);
    checks.push({
      name: `list at ${run.payments} payments: every GET /v1/payments answered 200`,
      ok: failed.length === 0,
      detail: failed.map((q) => `?${q.query}: ${q.errors} errors`).join(', ') || `${run.queries.length} queries × ${options.listRequests}`,
    });
    if (run.analytics) checks.push(...analyticsChecks(run.analytics, options.analyticsRequests));
  }
  return { phases, lists: listRuns, checks, goal };
}

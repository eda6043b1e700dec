/**
 * The sequence of a benchmark: the healthy run (after a warm-up), the failover run (account A in
 * outage at the emulator from its first request, so it measures the breaker opening too, not only
 * the steady state), and optionally the emulator alone. Collects the checks of each.
 */
import type { BenchStack } from './bench-stack';
import { distributionCheck, chargesCheck, latestPaymentCheck, webhookChecks, type Check } from './checks';
import { clearFaults, startOutage } from './emulator-control';
import { failoverGoal } from './goal';
import { log, measurePhase, settle, type PhaseContext } from './phases';
import type { PhaseReport } from './report';
import { emulatorTarget, emulatorToken, gatewayTarget } from './targets';
import { WebhookProbe } from './webhook-probe';

export interface RunsResult {
  phases: PhaseReport[];
  checks: Check[];
  goal: ReturnType<typeof failoverGoal> | undefined;
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

export async function runAll(bench: BenchStack, context: PhaseContext, runId: string): Promise<RunsResult> {
  const { stack, seed } = bench;
  // A merchant's webhook receiver for payment.created: event-to-webhook latency under this load.
  const probe = new WebhookProbe(`http://127.0.0.1:${stack.ports.gateway}`, seed.testKey);
  await probe.start();
  try {
    return await measureAll(bench, { ...context, webhooks: probe }, runId);
  } finally {
    await probe.stop();
  }
}

async function measureAll(bench: BenchStack, context: PhaseContext, runId: string): Promise<RunsResult> {
  const { stack, seed } = bench;
  const { options } = context;
  const phases: PhaseReport[] = [];
  const checks: Check[] = [];
  const probe = context.webhooks;
  const gateway = { ...gatewayTarget({ port: stack.ports.gateway, testKey: seed.testKey, runId }), ...(probe ? { onSuccess: (body: string) => probe.onCreated(body) } : {}) };
  await settle(context.watched);

  const healthy = await measurePhase('healthy', 'healthy (A and B up)', gateway, context, options.warmupS);
  phases.push(healthy);
  checks.push(...phaseChecks(healthy, 'A'), await latestPaymentCheck({ port: stack.ports.gateway, testKey: seed.testKey, runId }));

  let goal: RunsResult['goal'];
  if (!options.skipFailover) {
    log(`failover: outage of account A (emulator client ${seed.emulatorClient.clientId})`);
    await startOutage(stack.efiControlUrl, seed.emulatorClient.clientId);
    try {
      const failover = await measurePhase('failover', 'failover (A down)', gateway, context, 0);
      phases.push(failover);
      checks.push(...phaseChecks(failover, 'B'));
      goal = failoverGoal(healthy.load, failover.load);
    } finally {
      await clearFaults(stack.efiControlUrl);
    }
    // A is back: its breaker closes after the providers service's own recovery trial. A second
    // healthy run brackets the failover run (same store size), and shows payments return to A.
    await waitForBreakerClosed(stack.ports.providersMetrics);
    const after = await measurePhase('healthy_after', 'healthy again (A back)', gateway, context, 0);
    phases.push(after);
    checks.push(...phaseChecks(after, 'A'));
    const failoverPhase = phases.find((p) => p.phase === 'failover');
    if (failoverPhase) goal = failoverGoal(healthy.load, failoverPhase.load, after.load);
  }

  if (options.emulatorBaseline) {
    const client = seed.emulatorClient;
    const token = await emulatorToken({ port: stack.ports.efiApi, certDir: bench.certDir, client });
    const target = emulatorTarget({ port: stack.ports.efiApi, certDir: bench.certDir, token, pixKey: client.pixKey, runId });
    const emulator = await measurePhase('emulator', 'emulator alone (PUT /v2/cob, mTLS)', target, context, options.warmupS);
    phases.push(emulator);
    checks.push(chargesCheck(emulator.label, Object.values(emulator.chargesByAccount).reduce((sum, n) => sum + n, 0), emulator.load.successes));
  }
  return { phases, checks, goal };
}

/**
 * Sanity checks that the load did real work: the emulator created at least as many charges as
 * there were successes, on the account the run expects, and the payments are there to be read
 * back through the API.
 */
import type { WebhookLatency } from './webhook-probe';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** `charges`: charges the emulator created during the phase. */
export function chargesCheck(phase: string, charges: number, successes: number): Check {
  return {
    name: `${phase}: the emulator created ≥ 1 charge per 201`,
    ok: successes > 0 && charges >= successes,
    detail: `charges created ${charges}, 201 responses ${successes}`,
  };
}

/** `GET /v1/payments?limit=1`: the newest payment must be one of this run's. */
export async function latestPaymentCheck(options: { port: number; testKey: string; runId: string }): Promise<Check> {
  const name = 'gateway: GET /v1/payments?limit=1 returns a payment of this run';
  try {
    const response = await fetch(`http://127.0.0.1:${options.port}/v1/payments?limit=1`, {
      headers: { authorization: `Bearer ${options.testKey}` },
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as { data?: Array<{ id: string; status: string; amount: number; metadata?: Record<string, string> }> };
    const payment = body.data?.[0];
    const ok = response.status === 200 && payment?.metadata?.['run'] === options.runId && payment.amount === 1990;
    return { name, ok, detail: payment ? `${response.status}: ${payment.id} ${payment.status} amount ${payment.amount} run ${payment.metadata?.['run']}` : `${response.status}: no payment` };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message };
  }
}

/** Every charge of the phase went to the account that should take it (A when healthy, B during A's outage). */
export function distributionCheck(phase: string, byAccount: Record<string, number>, expected: string): Check {
  const total = Object.values(byAccount).reduce((sum, n) => sum + n, 0);
  const elsewhere = total - (byAccount[expected] ?? 0);
  return {
    name: `${phase}: every charge on account ${expected}`,
    ok: total > 0 && elsewhere === 0,
    detail: Object.entries(byAccount).map(([account, n]) => `${account} ${n}`).join(', ') || 'no charges',
  };
}

/** Every payment of the run got its payment.created webhook, and the p99 meets the goal (issue 5). */
export function webhookChecks(phase: string, webhooks: WebhookLatency | undefined, goalP99Ms = 500): Check[] {
  if (!webhooks) return [];
  return [
    {
      name: `${phase}: every 201 got its payment.created webhook`,
      ok: webhooks.expected > 0 && webhooks.delivered === webhooks.expected,
      detail: `${webhooks.delivered} of ${webhooks.expected} arrived`,
    },
    {
      name: `${phase}: event → webhook p99 ≤ ${goalP99Ms} ms`,
      ok: webhooks.latency.count > 0 && webhooks.latency.p99 <= goalP99Ms,
      detail: `p50 ${webhooks.latency.p50.toFixed(0)} ms, p99 ${webhooks.latency.p99.toFixed(0)} ms over ${webhooks.latency.count}`,
    },
  ];
}

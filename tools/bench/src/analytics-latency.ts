/**
 * How long `GET /v1/analytics/overview` takes as the merchant's payments grow (issue 18): after the
 * list-latency seeding has grown the payments database to a size, the payments service's
 * `rebuild-analytics` command recomputes the bench merchant's buckets from those payments (the
 * copies carry no outbox, so no event ever reached the buckets for them), then each query is sent
 * one at a time and its latency recorded. The overview reads buckets (one per São Paulo day,
 * provider account and method), never payments, so its cost should not grow with them.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { LatencyRecorder, type LatencySummary } from './latency';
import { log } from './phases';
import { REPO_ROOT } from './stack-api';

/** The default range (30 days) and the longest one (everything the seeding spread out). */
export const ANALYTICS_QUERIES = ['days=30', 'days=366'];
const WARMUP_REQUESTS = 3;

/** The parts of the overview the bench reads. */
interface OverviewBody {
  totals?: { created?: number };
  daily?: Array<{ created: number }>;
}

export interface AnalyticsQueryLatency {
  query: string;
  /** Answers other than 200 (or none at all). */
  errors: number;
  /** totals.created of the last answer: the payments the range holds. */
  created: number;
  /** Days of the range with at least one payment. */
  daysWithPayments: number;
  latency: LatencySummary;
}

export interface AnalyticsLatencyRun {
  /** The merchant's payments (this mode) during the run. */
  payments: number;
  /** Seconds `rebuild-analytics --merchant` took, and whether it exited 0. */
  rebuildS: number;
  rebuildOk: boolean;
  queries: AnalyticsQueryLatency[];
}

/** Runs `node dist/services/payments/main.js rebuild-analytics --merchant <id>` with the bench payments service's environment. */
export async function rebuildAnalytics(env: Record<string, string>, merchantId: string): Promise<{ ok: boolean; seconds: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(REPO_ROOT, 'dist/services/payments/main.js'), 'rebuild-analytics', '--merchant', merchantId], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  return { ok: code === 0, seconds: (performance.now() - started) / 1000, output };
}

async function timedOverview(baseUrl: string, testKey: string, query: string): Promise<{ ms: number; status: number; body: OverviewBody | undefined }> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/v1/analytics/overview?${query}`, { headers: { authorization: `Bearer ${testKey}` }, signal: AbortSignal.timeout(60_000) });
    const body = (await response.json()) as OverviewBody;
    return { ms: performance.now() - started, status: response.status, body };
  } catch {
    return { ms: performance.now() - started, status: 0, body: undefined };
  }
}

async function measureQuery(baseUrl: string, testKey: string, query: string, requests: number): Promise<AnalyticsQueryLatency> {
  for (let i = 0; i < WARMUP_REQUESTS; i++) await timedOverview(baseUrl, testKey, query);
  const recorder = new LatencyRecorder();
  let errors = 0;
  let last: OverviewBody | undefined;
  for (let i = 0; i < requests; i++) {
    const answer = await timedOverview(baseUrl, testKey, query);
    if (answer.status !== 200) errors++;
    else {
      recorder.record(answer.ms);
      last = answer.body;
    }
  }
  const daily = last?.daily ?? [];
  return { query, errors, created: last?.totals?.created ?? 0, daysWithPayments: daily.filter((day) => day.created > 0).length, latency: recorder.summary() };
}

/** One analytics run at the current size: rebuild the merchant's buckets, then time each query. */
export async function measureAnalyticsLatency(options: {
  payments: number;
  requests: number;
  baseUrl: string;
  testKey: string;
  merchantId: string;
  paymentsEnv: Record<string, string>;
}): Promise<AnalyticsLatencyRun> {
  log(`analytics at ${options.payments} payments: rebuild-analytics --merchant ${options.merchantId}…`);
  const rebuild = await rebuildAnalytics(options.paymentsEnv, options.merchantId);
  log(`analytics at ${options.payments}: rebuild ${rebuild.ok ? 'done' : 'FAILED'} in ${rebuild.seconds.toFixed(1)} s${rebuild.ok ? '' : `: ${rebuild.output.trim().split('\n').slice(-3).join(' | ')}`}`);
  const queries: AnalyticsQueryLatency[] = [];
  for (const query of ANALYTICS_QUERIES) {
    const measured = await measureQuery(options.baseUrl, options.testKey, query, options.requests);
    log(
      `analytics at ${options.payments}: ?${query} p50 ${measured.latency.p50.toFixed(1)} ms, p99 ${measured.latency.p99.toFixed(1)} ms ` +
        `(created ${measured.created} over ${measured.daysWithPayments} days, ${measured.errors} errors)`,
    );
    queries.push(measured);
  }
  return { payments: options.payments, rebuildS: rebuild.seconds, rebuildOk: rebuild.ok, queries };
}

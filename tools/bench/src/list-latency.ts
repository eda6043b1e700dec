/**
 * How long `GET /v1/payments?limit=20` takes as the merchant's payments grow: for each size, the
 * payments database is seeded up to it (payment-seeder.ts), then every query is sent one at a
 * time (a dashboard user paging, not a load test) and its latency recorded. The embedded store
 * answers filters on non-unique fields by scanning the collection, so this is where its size shows.
 */
import { measureAnalyticsLatency, type AnalyticsLatencyRun } from './analytics-latency';
import { LatencyRecorder, type LatencySummary } from './latency';
import { PaymentSeeder } from './payment-seeder';
import { log } from './phases';
import { readMemory } from './proc-stats';

/** Unfiltered, by status (one common, one rare), by method, and both. */
export const LIST_QUERIES = ['limit=20', 'limit=20&status=succeeded', 'limit=20&status=canceled', 'limit=20&method=pix', 'limit=20&status=pending&method=pix'];
const WARMUP_REQUESTS = 3;

export interface ListQueryLatency {
  query: string;
  /** Payments on the first page (≤ 20). */
  returned: number;
  /** Answers other than 200 (or none at all). */
  errors: number;
  latency: LatencySummary;
}

export interface ListLatencyRun {
  /** The merchant's payments during the run. */
  payments: number;
  /** Payments inserted to reach that size, and the seconds it took. */
  seeded: number;
  seedS: number;
  /** The store process's RSS after seeding (absent when the store is not a watched local process). */
  storeRssBytes?: number;
  queries: ListQueryLatency[];
  /** GET /v1/analytics/overview at this size (after rebuilding the merchant's buckets); absent with --skip-analytics. */
  analytics?: AnalyticsLatencyRun;
}

async function timedList(baseUrl: string, testKey: string, query: string): Promise<{ ms: number; status: number; returned: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/v1/payments?${query}`, { headers: { authorization: `Bearer ${testKey}` }, signal: AbortSignal.timeout(60_000) });
    const body = (await response.json()) as { data?: unknown[] };
    return { ms: performance.now() - started, status: response.status, returned: body.data?.length ?? 0 };
  } catch {
    return { ms: performance.now() - started, status: 0, returned: 0 };
  }
}

async function measureQuery(baseUrl: string, testKey: string, query: string, requests: number): Promise<ListQueryLatency> {
  for (let i = 0; i < WARMUP_REQUESTS; i++) await timedList(baseUrl, testKey, query);
  const recorder = new LatencyRecorder();
  let errors = 0;
  let returned = 0;
  for (let i = 0; i < requests; i++) {
    const answer = await timedList(baseUrl, testKey, query);
    if (answer.status !== 200) errors++;
    else recorder.record(answer.ms);
    returned = answer.returned;
  }
  return { query, returned, errors, latency: recorder.summary() };
}

export async function measureListLatency(options: {
  sizes: number[];
  requests: number;
  baseUrl: string;
  testKey: string;
  mongoUrl: string;
  dbName: string;
  runId: string;
  storePid: number | undefined;
  /** Also time the analytics overview at each size (issue 18). */
  analytics?: { requests: number; merchantId: string; paymentsEnv: Record<string, string> };
}): Promise<ListLatencyRun[]> {
  const seeder = new PaymentSeeder({ mongoUrl: options.mongoUrl, dbName: options.dbName, api: { baseUrl: options.baseUrl, testKey: options.testKey }, runId: options.runId });
  const runs: ListLatencyRun[] = [];
  try {
    for (const size of options.sizes) {
      log(`list latency: seeding the payments database up to ${size} payments…`);
      const seed = await seeder.growTo(size);
      log(`list latency: ${seed.inserted} payments inserted in ${seed.seconds.toFixed(1)} s (${seed.total} now); ${LIST_QUERIES.length} queries × ${options.requests} requests…`);
      const queries: ListQueryLatency[] = [];
      for (const query of LIST_QUERIES) {
        const measured = await measureQuery(options.baseUrl, options.testKey, query, options.requests);
        log(`list latency at ${seed.total}: ?${query} p50 ${measured.latency.p50.toFixed(1)} ms, p99 ${measured.latency.p99.toFixed(1)} ms (${measured.returned} returned, ${measured.errors} errors)`);
        queries.push(measured);
      }
      const storeRss = options.storePid === undefined ? undefined : readMemory(options.storePid)?.rssBytes;
      const analytics = options.analytics
        ? await measureAnalyticsLatency({ payments: seed.total, baseUrl: options.baseUrl, testKey: options.testKey, ...options.analytics })
        : undefined;
      runs.push({
        payments: seed.total,
        seeded: seed.inserted,
        seedS: seed.seconds,
        ...(storeRss !== undefined ? { storeRssBytes: storeRss } : {}),
        queries,
        ...(analytics ? { analytics } : {}),
      });
    }
  } finally {
    await seeder.close();
  }
  return runs;
}


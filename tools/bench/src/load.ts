/**
 * One closed-loop load run with autocannon: `connections` keep-alive connections, each sending its
 * next request as soon as the previous one answered, for `durationS`. Both phases use this, so
 * their latencies are measured the same way (autocannon's per-response time: request written →
 * response complete, on the load generator's clock).
 */
import autocannon from 'autocannon';
import { LatencyRecorder, type LatencySummary } from './latency';

export interface LoadTarget {
  /** Origin plus the path of the first request, e.g. http://127.0.0.1:10080/v1/payments. */
  url: string;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
  /** The status that counts as a success. */
  successStatus: number;
  /** Path and headers of the next request (unique ids, idempotency keys: unique across runs of one target). */
  next(): { path: string; headers?: Record<string, string> };
  tlsOptions?: { cert: Buffer; key: Buffer; ca: Buffer };
  /** Told of every successful answer's body (the webhook probe notes each payment's answer time). */
  onSuccess?: (body: string) => void;
}

export interface LoadShape {
  connections: number;
  durationS: number;
  timeoutS: number;
}

export interface LoadResult {
  connections: number;
  /** The paced rate (paced-load.ts); absent in a closed-loop run. */
  ratePerS?: number;
  durationS: number;
  /** Responses received (any status). Requests still in flight when the time is up are not counted. */
  responses: number;
  successes: number;
  successesPerS: number;
  responsesPerS: number;
  /** Responses by HTTP status. */
  statusCounts: Record<string, number>;
  /** Responses whose status was not the success status. */
  failedResponses: number;
  /** Transport errors and client timeouts (no response at all), by error code. */
  transportErrors: Record<string, number>;
  transportErrorCount: number;
  /** Every response's latency (ms). */
  latency: LatencySummary;
  /** Latency of the successful responses only (ms). */
  successLatency: LatencySummary;
  /** autocannon's own summary of the same responses (HdrHistogram, whole ms), for cross-checking; absent in paced runs. */
  autocannon?: { p50: number; p99: number; max: number; mean: number };
}

/** The figures of a run from what its load generator (closed loop or paced) recorded. */
export function loadResult(recorded: {
  target: Pick<LoadTarget, 'successStatus'>;
  connections: number;
  durationS: number;
  all: LatencyRecorder;
  ok: LatencyRecorder;
  statusCounts: Record<string, number>;
  transportErrors: Record<string, number>;
  transportErrorCount: number;
}): LoadResult {
  const { all, ok, statusCounts, durationS } = recorded;
  const successes = statusCounts[String(recorded.target.successStatus)] ?? 0;
  return {
    connections: recorded.connections,
    durationS,
    responses: all.count,
    successes,
    successesPerS: successes / durationS,
    responsesPerS: all.count / durationS,
    statusCounts,
    failedResponses: all.count - successes,
    transportErrors: recorded.transportErrors,
    transportErrorCount: recorded.transportErrorCount,
    latency: all.summary(),
    successLatency: ok.summary(),
  };
}

export async function runLoad(target: LoadTarget, shape: LoadShape): Promise<LoadResult> {
  const all = new LatencyRecorder();
  const ok = new LatencyRecorder();
  const transportErrors: Record<string, number> = {};

  const instance = autocannon({
    url: target.url,
    connections: shape.connections,
    duration: shape.durationS,
    timeout: shape.timeoutS,
    method: target.method,
    headers: target.headers,
    body: target.body,
    tlsOptions: target.tlsOptions,
    // A top-level setupRequest is ignored by autocannon 8: only one inside `requests` runs (before every request).
    requests: [
      {
        setupRequest: (request) => {
          const next = target.next();
          request.path = next.path;
          request.headers = { ...request.headers, ...next.headers };
          return request;
        },
        ...(target.onSuccess
          ? { onResponse: (status: number, body: string) => (status === target.successStatus ? target.onSuccess?.(body) : undefined) }
          : {}),
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    all.record(ms);
    if (status === target.successStatus) ok.record(ms);
  });
  instance.on('reqError', (error: NodeJS.ErrnoException) => {
    const code = error.code ?? error.message;
    transportErrors[code] = (transportErrors[code] ?? 0) + 1;
  });

  const result = await instance;
  const statusCounts: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statusCounts[status] = count;
  return {
    ...loadResult({ target, connections: shape.connections, durationS: result.duration, all, ok, statusCounts, transportErrors, transportErrorCount: result.errors }),
    autocannon: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
  };
}

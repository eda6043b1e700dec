/**
 * An open-loop run at a fixed rate: one request every 1/rate seconds, evenly spaced, whether or
 * not the earlier ones have answered, for `durationS`; then the answers still owed are awaited.
 * This is how the platform's latency below saturation is measured. autocannon's own rate option
 * does not do it: each connection may send `rate / connections` requests per one-second window,
 * all at the window's start, so the load arrives in bursts of the whole second's requests and
 * the latency measured is a burst's queueing.
 */
import { Agent, request } from 'undici';
import { LatencyRecorder } from './latency';
import { loadResult, type LoadResult, type LoadShape, type LoadTarget } from './load';

export async function runPacedLoad(target: LoadTarget, shape: LoadShape & { ratePerS: number }): Promise<LoadResult> {
  const all = new LatencyRecorder();
  const ok = new LatencyRecorder();
  const statusCounts: Record<string, number> = {};
  const transportErrors: Record<string, number> = {};
  let transportErrorCount = 0;
  const origin = new URL(target.url).origin;
  // Keep-alive connections, as many as requests may be in flight at once (the shape's connections).
  const agent = new Agent({ connections: shape.connections, pipelining: 1, ...(target.tlsOptions ? { connect: { ...target.tlsOptions } } : {}) });

  const send = async (): Promise<void> => {
    const next = target.next();
    const started = performance.now();
    try {
      const answer = await request(`${origin}${next.path}`, {
        method: target.method,
        dispatcher: agent,
        headers: { ...target.headers, ...next.headers },
        body: target.body,
        headersTimeout: shape.timeoutS * 1000,
        bodyTimeout: shape.timeoutS * 1000,
      });
      const body = await answer.body.text();
      const ms = performance.now() - started;
      all.record(ms);
      statusCounts[String(answer.statusCode)] = (statusCounts[String(answer.statusCode)] ?? 0) + 1;
      if (answer.statusCode === target.successStatus) {
        ok.record(ms);
        target.onSuccess?.(body);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      transportErrors[code] = (transportErrors[code] ?? 0) + 1;
      transportErrorCount++;
    }
  };

  const intervalMs = 1000 / shape.ratePerS;
  const total = Math.round(shape.ratePerS * shape.durationS);
  const inFlight: Array<Promise<void>> = [];
  const begin = performance.now();
  for (let i = 0; i < total; i++) {
    // Each request at its own time from the start, so timer lateness does not accumulate.
    const wait = begin + i * intervalMs - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send());
  }
  const sentS = (performance.now() - begin) / 1000 + intervalMs / 1000;
  await Promise.all(inFlight);
  await agent.close();

  return {
    ...loadResult({ target, connections: shape.connections, durationS: sentS, all, ok, statusCounts, transportErrors, transportErrorCount }),
    ratePerS: shape.ratePerS,
  };
}

import { Agent, request } from 'undici';
import { parseRetryAfter } from '../domain/retry-schedule';

export interface SendResult {
  /** 0 when no HTTP answer came. */
  status_code: number;
  latency_ms: number;
  /** Empty on a 2xx; otherwise what went wrong, in a few words. */
  error: string;
  retry_after_ms: number | null;
}

/** Bytes of a receiver's answer we read before dropping the connection: we only need its status. */
const MAX_RESPONSE_BYTES = 4_096;

/**
 * POSTs one webhook. Never follows redirects (a 3xx is a failure: the receiver must register its
 * final URL), reads at most 4 KiB of the answer, and gives up after `timeoutMs` in total. Only a
 * 2xx counts as delivered.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number) {
    this.agent = new Agent({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
      connections: 16,
    });
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Orquestra-Webhooks/1', ...headers },
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        status_code: response.statusCode,
        latency_ms: latency(),
        error: ok ? '' : response.statusCode >= 300 && response.statusCode < 400 ? `redirect ${response.statusCode} not followed` : `HTTP ${response.statusCode}`,
        retry_after_ms: parseRetryAfter(response.headers['retry-after']),
      };
    } catch (error) {
      const err = error as Error & { code?: string };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '');
      return { status_code: 0, latency_ms: latency(), error: timedOut ? `timeout after ${this.timeoutMs} ms` : (err.code ?? err.message).slice(0, 200), retry_after_ms: null };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

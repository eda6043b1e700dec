import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { parseRetryAfter } from '../domain/retry-schedule';
import { isInternalAddress } from '../domain/webhook-url';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * DNS lookup for live-mode deliveries: refuses a host that resolves to a loopback, private,
 * link-local or otherwise internal address. Registration already refuses such literal addresses;
 * this stops a public name that resolves (or is re-pointed) inside our network (SSRF, DNS rebinding).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as LookupAddress[];
    const internal = list.find((entry) => isInternalAddress(entry.address));
    const first = list[0];
    if (internal || !first) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to an internal address`);
      refused.code = 'EINTERNALADDRESS';
      return callback(refused, []);
    }
    if (options.all) return callback(null, list);
    callback(null, first.address, first.family);
  });
}

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
  /** Test-mode endpoints: may be the developer's own machine (http://localhost…). */
  private readonly agent: Agent;
  /** Live-mode endpoints: public addresses only, checked when connecting (publicOnlyLookup). */
  private readonly liveAgent: Agent;

  constructor(private readonly timeoutMs: number) {
    const shape = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 4_000, connections: 16 };
    this.agent = new Agent({ ...shape, connect: { timeout: timeoutMs } });
    this.liveAgent = new Agent({ ...shape, connect: { timeout: timeoutMs, lookup: publicOnlyLookup as never } });
  }

  async send(url: string, body: string, headers: Record<string, string>, mode: 'test' | 'live' = 'live'): Promise<SendResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Orquestra-Webhooks/1', ...headers },
        dispatcher: mode === 'test' ? this.agent : this.liveAgent,
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
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      const code = err.code === 'EINTERNALADDRESS' || cause === 'EINTERNALADDRESS' ? 'refused: the host resolves to an internal address' : (err.code ?? cause ?? err.message);
      return { status_code: 0, latency_ms: latency(), error: timedOut ? `timeout after ${this.timeoutMs} ms` : code.slice(0, 200), retry_after_ms: null };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.liveAgent.close()]);
  }
}

/**
 * Sends an emulator's webhooks in the background: one POST per attempt, retried after a non-accepted
 * status or a transport error with exponential backoff (the real providers retry for hours or
 * days; here a few short retries, configurable), every attempt recorded in the delivery log.
 * Stopping aborts the waits and the requests in flight, so tests and the stack stop at once.
 *
 * The provider's scheme stays with the emulator: which receivers an event goes to, the body, the
 * headers of each attempt (a signature made per attempt goes in `headers(attempt)`), which
 * statuses count as received, and what a failure does to the receiver (Asaas interrupts a queue).
 *
 * @example
 * class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
 *   notify(charge: Charge, url: string): void { // new WebhookSender(state, state.deliveries, options, logger)
 *     const delivery = this.log.start({ chargeId: charge.id, urlWithoutQuery: withoutQuery(url) });
 *     this.enqueue({ delivery, url, body: JSON.stringify(charge), headers: () => ({ 'content-type': 'application/json' }) });
 *   }
 * }
 */
import { Agent, request, type Dispatcher } from 'undici';
import type { DeliveryLog, DeliveryRecord } from './delivery-log';
import type { Logger } from './logger';

export interface WebhookRetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Delay before the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Per-attempt timeout (default 5 s). */
  timeoutMs?: number;
}

export interface OutboundWebhook<D extends DeliveryRecord> {
  /** Already started in the log; its attempts and outcome are recorded here. */
  delivery: D;
  url: string | URL;
  body: string | Buffer;
  /** The headers of attempt `attempt` (0 is the first). */
  headers: (attempt: number) => Record<string, string>;
  /** Which statuses the provider counts as received (default 2xx). */
  accepted?: (status: number) => boolean;
  /** After each attempt, whether it was received (a provider that counts consecutive failures). */
  afterAttempt?: (received: boolean) => void;
  /** A dispatcher other than the outbox's own plain agent (client certificates). */
  dispatcher?: Dispatcher;
  /** Said in the delivered/failed log lines besides the delivery id and URL. */
  logFields?: Record<string, unknown>;
}

const is2xx = (status: number) => status >= 200 && status <= 299;

/** The code of a transport failure, looking inside the wrappers undici and Happy Eyeballs put it in. */
export function transportErrorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; errors?: { code?: string }[] };
  return e.code ?? e.cause?.code ?? e.errors?.[0]?.code ?? 'UNKNOWN';
}

/** `S`: the emulator's state, which the subclass reads to find receivers (and whose clock stamps attempts). */
export class WebhookOutbox<D extends DeliveryRecord, S extends { now(): Date } = { now(): Date }> {
  protected readonly timeoutMs: number;
  private readonly agent: Agent;
  private readonly pending = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private readonly retries: number;
  private readonly baseDelayMs: number;

  constructor(
    protected readonly state: S,
    protected readonly log: DeliveryLog<D>,
    options: WebhookRetryOptions,
    protected readonly logger: Logger,
  ) {
    this.retries = options.retries ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.agent = new Agent({ headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, connect: { timeout: this.timeoutMs } });
  }

  /** One POST, no retry; answers the status (the body is drained). Throws on transport errors. */
  protected async post(url: string | URL, body: string | Buffer, headers: Record<string, string>, dispatcher: Dispatcher = this.agent): Promise<number> {
    const response = await request(url, { method: 'POST', headers, body, dispatcher, signal: this.abort.signal });
    await response.body.dump();
    return response.statusCode;
  }

  /** Delivers in the background until received, out of retries, or stopped. */
  protected enqueue(webhook: OutboundWebhook<D>): void {
    const run = this.attempts(webhook);
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  private async attempts(webhook: OutboundWebhook<D>): Promise<void> {
    const { delivery } = webhook;
    const accepted = webhook.accepted ?? is2xx;
    const about = { delivery: delivery.id, ...webhook.logFields, url: delivery.urlWithoutQuery };
    for (let attempt = 0; attempt <= this.retries; attempt += 1) {
      if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
      if (this.abort.signal.aborted) break;
      try {
        const status = await this.post(webhook.url, webhook.body, webhook.headers(attempt), webhook.dispatcher);
        this.log.recordAttempt(delivery, { at: this.state.now().toISOString(), status });
        if (accepted(status)) {
          webhook.afterAttempt?.(true);
          this.log.finish(delivery, 'delivered');
          this.logger.info({ ...about, status }, 'webhook delivered');
          return;
        }
      } catch (err) {
        this.log.recordAttempt(delivery, { at: this.state.now().toISOString(), error: transportErrorCode(err) });
      }
      webhook.afterAttempt?.(false);
    }
    this.log.finish(delivery, 'failed');
    this.logger.warn({ ...about, attempts: delivery.attempts.length }, 'webhook failed');
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Resolves when every background delivery has finished (tests use it). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.idle();
    await this.agent.close();
  }
}

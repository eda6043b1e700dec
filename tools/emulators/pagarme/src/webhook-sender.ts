/**
 * Outbound webhooks, the way Pagar.me sends them: a POST of
 * `{id:"hook_…", account:{id,name}, type, created_at, data}` to the URL configured for the account
 * (in Pagar.me's dashboard; here through `POST /__control/webhook`), for the events chosen there.
 * Pagar.me v5 signs nothing (no documented signature header), so receivers authenticate by a
 * secret they put in the URL. Non-2xx answers and transport errors are retried with exponential
 * backoff, keeping the same hook id, so receivers can dedupe retries.
 */
import { Agent, request } from 'undici';
import type { EmulatorState, WebhookDelivery } from './emulator-state';
import type { Logger } from './logger';
import { newId } from './pagarme-ids';

export interface WebhookSenderOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Delay before the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Per-attempt timeout (default 5 s). */
  timeoutMs?: number;
}

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code ?? 'UNKNOWN';
}

export class WebhookSender {
  private readonly agent: Agent;
  private readonly pending = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private readonly retries: number;
  private readonly baseDelayMs: number;

  constructor(
    private readonly state: EmulatorState,
    options: WebhookSenderOptions,
    private readonly logger: Logger,
  ) {
    this.retries = options.retries ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    const timeoutMs = options.timeoutMs ?? 5_000;
    this.agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
  }

  /** Sends one event in the background if the account's webhook subscribes to it; answers whether it will. */
  send(accountId: string, type: string, data: unknown, chargeIds: string[]): boolean {
    const config = this.state.getWebhook(accountId);
    if (!config || !config.events.includes(type)) return false;
    const body = {
      id: newId('hook'),
      account: { id: accountId, name: this.state.accountName(accountId) },
      type,
      created_at: this.state.now().toISOString(),
      data,
    };
    const delivery = this.state.startDelivery({ id: body.id, accountId, type, urlWithoutQuery: withoutQuery(config.url), chargeIds });
    const run = this.deliver(config.url, JSON.stringify(body), delivery);
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
    return true;
  }

  private async deliver(url: string, payload: string, delivery: WebhookDelivery): Promise<void> {
    for (let attempt = 0; attempt <= this.retries; attempt += 1) {
      if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
      if (this.abort.signal.aborted) break;
      try {
        const response = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Pagar.me-Webhooks (emulator)' },
          body: payload,
          dispatcher: this.agent,
          signal: this.abort.signal,
        });
        await response.body.dump();
        this.state.recordAttempt(delivery, { status: response.statusCode });
        if (response.statusCode >= 200 && response.statusCode <= 299) {
          this.state.finishDelivery(delivery, 'delivered');
          this.logger.info({ hook: delivery.id, type: delivery.type, url: delivery.urlWithoutQuery, status: response.statusCode }, 'webhook delivered');
          return;
        }
      } catch (err) {
        this.state.recordAttempt(delivery, { error: errorCode(err) });
      }
    }
    this.state.finishDelivery(delivery, 'failed');
    this.logger.warn({ hook: delivery.id, type: delivery.type, url: delivery.urlWithoutQuery, attempts: delivery.attempts.length }, 'webhook failed');
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
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

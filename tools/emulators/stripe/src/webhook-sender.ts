/**
 * Outbound webhooks, the way Stripe sends them: each event goes to every enabled endpoint of the
 * account that subscribes to its type (or `*`), as `POST <url>` with the event as pretty-printed
 * JSON, `Content-Type: application/json; charset=utf-8`, `User-Agent: Stripe/1.0 (+https://stripe.com/docs/webhooks)`
 * and a `Stripe-Signature` made with that endpoint's secret. Any non-2xx or transport error is
 * retried with exponential backoff, each attempt signed anew with a fresh timestamp (Stripe: for
 * up to 3 days in live mode; here a few short retries, configurable).
 */
import { Agent, request } from 'undici';
import type { EmulatorState, WebhookDelivery, WebhookEndpoint } from './emulator-state';
import type { StripeEvent } from './events';
import type { Logger } from './logger';
import { signatureHeader } from './webhook-signature';

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

export function subscribes(endpoint: WebhookEndpoint, type: string): boolean {
  return endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type);
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

  /** Sends the event in the background to every endpoint of the account that wants it. */
  dispatch(accountId: string, event: StripeEvent): void {
    const targets = this.state.listEndpoints(accountId).filter((endpoint) => subscribes(endpoint, event.type));
    if (targets.length === 0) return;
    event.pending_webhooks = targets.length;
    const payload = JSON.stringify(event, null, 2);
    const paymentIntentId = paymentIntentOf(event);
    for (const endpoint of targets) {
      const delivery = this.state.startDelivery({
        eventId: event.id,
        eventType: event.type,
        accountId,
        endpointId: endpoint.id,
        urlWithoutQuery: withoutQuery(endpoint.url),
        ...(paymentIntentId ? { paymentIntentId } : {}),
      });
      const run = this.deliver(endpoint, payload, event.livemode, delivery);
      this.pending.add(run);
      void run.finally(() => this.pending.delete(run));
    }
  }

  private async deliver(endpoint: WebhookEndpoint, payload: string, livemode: boolean, delivery: WebhookDelivery): Promise<void> {
    for (let attempt = 0; attempt <= this.retries; attempt += 1) {
      if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
      if (this.abort.signal.aborted) break;
      try {
        const response = await request(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signatureHeader(endpoint.secret, this.state.nowSeconds(), payload, livemode),
          },
          body: payload,
          dispatcher: this.agent,
          signal: this.abort.signal,
        });
        await response.body.dump();
        this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), status: response.statusCode });
        if (response.statusCode >= 200 && response.statusCode <= 299) {
          this.state.finishDelivery(delivery, 'delivered');
          this.logger.info({ delivery: delivery.id, event: delivery.eventType, url: delivery.urlWithoutQuery, status: response.statusCode }, 'webhook delivered');
          return;
        }
      } catch (err) {
        this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), error: errorCode(err) });
      }
    }
    this.state.finishDelivery(delivery, 'failed');
    this.logger.warn({ delivery: delivery.id, event: delivery.eventType, url: delivery.urlWithoutQuery, attempts: delivery.attempts.length }, 'webhook failed');
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

function paymentIntentOf(event: StripeEvent): string | undefined {
  const object = event.data.object as { object?: unknown; id?: unknown; payment_intent?: unknown };
  if (object.object === 'payment_intent' && typeof object.id === 'string') return object.id;
  return typeof object.payment_intent === 'string' ? object.payment_intent : undefined;
}

/**
 * Outbound webhooks, the way Asaas sends them: `POST` to the URL as registered (query included),
 * body `{id:"evt_…", event, dateCreated, payment:{…}}`, header `asaas-access-token: <authToken>`
 * when the webhook has one. Only HTTP 200 counts as delivered (docs.asaas.com "FAQ de Webhooks");
 * anything else is retried with growing delays, and after 15 consecutive failures the webhook's
 * queue is interrupted. Here the retries are few and short (configurable).
 */
import { Agent, request } from 'undici';
import { newEventId } from './asaas-ids';
import type { EmulatorState, StoredPayment } from './emulator-state';
import type { Logger } from './logger';
import { writeJson } from './money-json';
import { spDateTime } from './sao-paulo-time';
import { withoutQuery, type StoredWebhook } from './webhook-store';

export interface WebhookSenderOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Delay before the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Per-attempt timeout (default 5 s). */
  timeoutMs?: number;
}

const INTERRUPT_AFTER_FAILURES = 15;

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

  /**
   * Sends `event` about `payment` to every webhook of its account subscribed to it, in the
   * background; answers the event id. `eventId` given: a redelivery of that event (same id).
   */
  paymentEvent(payment: StoredPayment, event: string, toJson: (p: StoredPayment) => unknown, eventId: string = newEventId()): string {
    const subscribers = this.state.webhooks.subscribers(payment.accountId, event);
    if (subscribers.length === 0) return eventId;
    // One event id per event, shared by its deliveries and their retries, as Asaas does.
    const body = writeJson({ id: eventId, event, dateCreated: spDateTime(this.state.now()), payment: toJson(payment) });
    for (const webhook of subscribers) this.deliver(webhook, { eventId, event, paymentId: payment.id }, body);
    return eventId;
  }

  private deliver(webhook: StoredWebhook, about: { eventId: string; event: string; paymentId: string }, body: string): void {
    const { event } = about;
    const delivery = this.state.webhooks.startDelivery({
      webhookId: webhook.id,
      accountId: webhook.accountId,
      ...about,
      urlWithoutQuery: withoutQuery(webhook.url),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Asaas_Hmlg/3.0 (emulator)' };
    if (webhook.authToken) headers['asaas-access-token'] = webhook.authToken;
    const run = (async () => {
      for (let attempt = 0; attempt <= this.retries; attempt += 1) {
        if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
        if (this.abort.signal.aborted) break;
        try {
          const response = await request(webhook.url, { method: 'POST', headers, body, dispatcher: this.agent, signal: this.abort.signal });
          await response.body.dump();
          this.state.webhooks.recordAttempt(delivery, { at: this.state.now().toISOString(), status: response.statusCode });
          if (response.statusCode === 200) {
            webhook.consecutiveFailures = 0;
            this.state.webhooks.finishDelivery(delivery, 'delivered');
            this.logger.info({ delivery: delivery.id, event, url: delivery.urlWithoutQuery }, 'webhook delivered');
            return;
          }
        } catch (err) {
          this.state.webhooks.recordAttempt(delivery, { at: this.state.now().toISOString(), error: errorCode(err) });
        }
        webhook.consecutiveFailures += 1;
        if (webhook.consecutiveFailures >= INTERRUPT_AFTER_FAILURES) webhook.interrupted = true;
      }
      this.state.webhooks.finishDelivery(delivery, 'failed');
      this.logger.warn({ delivery: delivery.id, event, url: delivery.urlWithoutQuery, attempts: delivery.attempts.length }, 'webhook failed');
    })();
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
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

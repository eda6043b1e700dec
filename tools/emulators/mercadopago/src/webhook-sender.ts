/**
 * Outbound notifications, the way Mercado Pago sends them for a payment:
 * - to the payment's `notification_url` (it wins over the URL configured in the dashboard), with
 *   `data.id=<payment id>&type=payment` appended to its query string;
 * - Webhooks format: JSON `{id, live_mode, type:"payment", date_created, user_id, api_version,
 *   action, data:{id}}`, headers `x-request-id` (fresh per attempt), `x-signature` (signed per
 *   attempt with the account's secret), `x-retry` (attempt number);
 * - legacy IPN too (`?topic=payment&id=<id>`, body `{resource, topic}`, no verifiable signature)
 *   unless the URL says `source_news=webhooks`; `source_news=ipn` sends only IPN.
 * Non-2xx answers and transport errors are retried with exponential backoff (Mercado Pago: after
 * 15 min, 30 min, 6 h, 48 h, 96 h…; here a few short, configurable retries).
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { EmulatorState, StoredPayment, WebhookDelivery } from './emulator-state';
import type { Logger } from './logger';
import { signatureHeader } from './webhook-signature';

export interface WebhookSenderOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Delay before the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Per-attempt timeout (Mercado Pago waits 22 s; default 5 s). */
  timeoutMs?: number;
}

export type PaymentAction = 'payment.created' | 'payment.updated';

function withoutQuery(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; errors?: { code?: string }[] };
  return e.code ?? e.cause?.code ?? e.errors?.[0]?.code ?? 'UNKNOWN';
}

interface Outbound {
  url: URL;
  body: string;
  /** Headers of one attempt (signature and request id are fresh each time). */
  headers: (attempt: number) => Record<string, string>;
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

  /** Schedules the notifications of a payment event; answers whether there was a URL to send to. */
  notify(payment: StoredPayment, action: PaymentAction): boolean {
    const account = this.state.accountForUser(payment.userId);
    const configured = payment.request.notificationUrl ?? account?.dashboardWebhookUrl;
    if (!account || !configured) return false;
    const sourceNews = new URL(configured).searchParams.get('source_news');
    const dataId = String(payment.id);

    if (sourceNews !== 'ipn') {
      const url = new URL(configured);
      url.searchParams.append('data.id', dataId);
      url.searchParams.append('type', 'payment');
      const body = JSON.stringify({
        action,
        api_version: 'v1',
        data: { id: dataId },
        date_created: this.state.now().toISOString(),
        id: this.state.allocateNotificationId(),
        live_mode: false,
        type: 'payment',
        user_id: payment.userId,
      });
      this.send('webhook', payment, action, {
        url,
        body,
        headers: (attempt) => {
          const requestId = randomUUID();
          return {
            'x-request-id': requestId,
            'x-signature': signatureHeader(account.webhookSecret, dataId, requestId, this.state.now()),
            'x-retry': String(attempt),
          };
        },
      });
    }
    if (sourceNews !== 'webhooks') {
      const url = new URL(configured);
      url.searchParams.append('topic', 'payment');
      url.searchParams.append('id', dataId);
      this.send('ipn', payment, action, {
        url,
        body: JSON.stringify({ resource: dataId, topic: 'payment' }),
        headers: (attempt) => ({ 'x-request-id': randomUUID(), 'x-retry': String(attempt) }),
      });
    }
    return true;
  }

  private send(kind: WebhookDelivery['kind'], payment: StoredPayment, action: PaymentAction, outbound: Outbound): void {
    const delivery = this.state.startDelivery({ kind, userId: payment.userId, paymentId: payment.id, action, urlWithoutQuery: withoutQuery(outbound.url) });
    const run = (async () => {
      for (let attempt = 0; attempt <= this.retries; attempt += 1) {
        if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
        if (this.abort.signal.aborted) break;
        try {
          const response = await request(outbound.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'restclient-node/4.15.3', 'x-socket-timeout': '22000', ...outbound.headers(attempt) },
            body: outbound.body,
            dispatcher: this.agent,
            signal: this.abort.signal,
          });
          await response.body.dump();
          this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), status: response.statusCode });
          // Mercado Pago counts 200 and 201 as received; anything else is retried.
          if (response.statusCode === 200 || response.statusCode === 201) {
            this.state.finishDelivery(delivery, 'delivered');
            this.logger.info({ delivery: delivery.id, kind, url: delivery.urlWithoutQuery, status: response.statusCode }, 'webhook delivered');
            return;
          }
        } catch (err) {
          this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), error: errorCode(err) });
        }
      }
      this.state.finishDelivery(delivery, 'failed');
      this.logger.warn({ delivery: delivery.id, kind, url: delivery.urlWithoutQuery, attempts: delivery.attempts.length }, 'webhook failed');
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

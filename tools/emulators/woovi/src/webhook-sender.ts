/**
 * Outbound webhooks, the way Woovi sends them: one POST per active registration of the account
 * for the event, JSON body, `x-webhook-signature` = base64 RSA-SHA256 of the exact bytes sent,
 * and the registration's `authorization` echoed in `Authorization` (and `x-openpix-authorization`,
 * per third-party descriptions: unconfirmed). A non-2xx answer or a transport error is retried
 * with exponential backoff (Woovi: 8 attempts, 10 s · 2^n; here a few, short, configurable).
 */
import { Agent, request } from 'undici';
import { webhookBody, type Company, type WooviEvent } from './charge-json';
import type { EmulatorState, StoredCharge, WebhookDelivery, WebhookRecord } from './emulator-state';
import type { Logger } from './logger';
import type { SigningKeys } from './signing-keys';

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
    private readonly keys: SigningKeys,
    private readonly company: Company,
    options: WebhookSenderOptions,
    private readonly logger: Logger,
  ) {
    this.retries = options.retries ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    const timeoutMs = options.timeoutMs ?? 5_000;
    this.agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
  }

  /** Sends `event` about `charge` to every matching registration in the background; answers how many. */
  notify(event: WooviEvent, charge: StoredCharge): number {
    const registrations = this.state.webhooksFor(charge.accountId, event);
    if (registrations.length === 0) return 0;
    const body = Buffer.from(JSON.stringify(webhookBody(this.state, event, charge, this.company)));
    const signature = this.keys.signature(body);
    for (const registration of registrations) this.deliver(registration, event, charge.correlationID, body, signature);
    return registrations.length;
  }

  /** Sends a prepared payload (a refund's) for `event`, with the company and account added as Woovi does. */
  notifyWith(event: string, charge: StoredCharge, payload: Record<string, unknown>): number {
    const registrations = this.state.webhooksFor(charge.accountId, event);
    if (registrations.length === 0) return 0;
    const body = Buffer.from(JSON.stringify({ ...payload, company: this.company, account: {} }));
    const signature = this.keys.signature(body);
    for (const registration of registrations) this.deliver(registration, event, charge.correlationID, body, signature);
    return registrations.length;
  }

  /**
   * The test notification Woovi posts once when a webhook is created: `{data_criacao, event}`
   * (docs "Validando o webhook de teste"). Its outcome does not affect the registration here.
   */
  notifyTest(registration: WebhookRecord): void {
    const body = Buffer.from(JSON.stringify({ data_criacao: this.state.now().toISOString(), event: registration.event }));
    this.deliver(registration, registration.event, undefined, body, this.keys.signature(body));
  }

  private deliver(registration: WebhookRecord, event: string, correlationID: string | undefined, body: Buffer, signature: string): void {
    const delivery = this.state.startDelivery({
      event,
      accountId: registration.accountId,
      urlWithoutQuery: withoutQuery(registration.url),
      ...(correlationID ? { correlationID } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-webhook-signature': signature };
    if (registration.authorization) {
      headers['authorization'] = registration.authorization;
      headers['x-openpix-authorization'] = registration.authorization;
    }
    const run = this.attempts(delivery, registration.url, headers, body);
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  private async attempts(delivery: WebhookDelivery, url: string, headers: Record<string, string>, body: Buffer): Promise<void> {
    for (let attempt = 0; attempt <= this.retries; attempt += 1) {
      if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
      if (this.abort.signal.aborted) break;
      try {
        const response = await request(url, { method: 'POST', headers, body, dispatcher: this.agent, signal: this.abort.signal });
        await response.body.dump();
        this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), status: response.statusCode });
        if (response.statusCode >= 200 && response.statusCode <= 299) {
          this.state.finishDelivery(delivery, 'delivered');
          this.logger.info({ delivery: delivery.id, event: delivery.event, url: delivery.urlWithoutQuery, status: response.statusCode }, 'webhook delivered');
          return;
        }
      } catch (err) {
        this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), error: errorCode(err) });
      }
    }
    this.state.finishDelivery(delivery, 'failed');
    this.logger.warn({ delivery: delivery.id, event: delivery.event, url: delivery.urlWithoutQuery, attempts: delivery.attempts.length }, 'webhook failed');
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

/**
 * Webhook configurations (`/v3/webhooks`, up to 10 per account, as Asaas allows) and the record of
 * every delivery with its attempts. URLs are kept as registered (they may carry the integrator's
 * secret in the query string); deliveries record them without the query.
 */
import { refill } from '../../kit';
import { newUuid } from './asaas-ids';

export type SendType = 'SEQUENTIALLY' | 'NON_SEQUENTIALLY';

export interface StoredWebhook {
  id: string;
  accountId: string;
  name: string;
  url: string;
  email?: string;
  enabled: boolean;
  /** The queue is paused (Asaas pauses it after 15 consecutive failures). */
  interrupted: boolean;
  authToken?: string;
  sendType: SendType;
  events: string[];
  apiVersion: number;
  consecutiveFailures: number;
}

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface WebhookDelivery {
  id: number;
  webhookId: string;
  accountId: string;
  eventId: string;
  event: string;
  paymentId?: string;
  urlWithoutQuery: string;
  attempts: DeliveryAttempt[];
  outcome: 'pending' | 'delivered' | 'failed';
}

export const MAX_WEBHOOKS_PER_ACCOUNT = 10;

export function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

export class WebhookStore {
  private readonly byAccount = new Map<string, StoredWebhook[]>();
  private readonly deliveries: WebhookDelivery[] = [];
  private nextDeliveryId = 1;
  counters = { webhooks_sent: 0, webhooks_failed: 0, webhook_attempts: 0 };

  list(accountId: string): StoredWebhook[] {
    return this.byAccount.get(accountId) ?? [];
  }

  get(accountId: string, id: string): StoredWebhook | undefined {
    return this.list(accountId).find((w) => w.id === id);
  }

  create(webhook: Omit<StoredWebhook, 'id' | 'consecutiveFailures'>): StoredWebhook {
    const stored: StoredWebhook = { ...webhook, id: newUuid(), consecutiveFailures: 0 };
    this.byAccount.set(webhook.accountId, [...this.list(webhook.accountId), stored]);
    return stored;
  }

  remove(accountId: string, id: string): boolean {
    const before = this.list(accountId);
    const after = before.filter((w) => w.id !== id);
    this.byAccount.set(accountId, after);
    return after.length !== before.length;
  }

  /** Enabled, running webhooks of the account that subscribe to `event`. */
  subscribers(accountId: string, event: string): StoredWebhook[] {
    return this.list(accountId).filter((w) => w.enabled && !w.interrupted && w.events.includes(event));
  }

  count(): number {
    let total = 0;
    for (const webhooks of this.byAccount.values()) total += webhooks.length;
    return total;
  }

  startDelivery(delivery: Omit<WebhookDelivery, 'id' | 'attempts' | 'outcome'>): WebhookDelivery {
    const record: WebhookDelivery = { ...delivery, id: this.nextDeliveryId, attempts: [], outcome: 'pending' };
    this.nextDeliveryId += 1;
    this.deliveries.push(record);
    return record;
  }

  recordAttempt(delivery: WebhookDelivery, attempt: DeliveryAttempt): void {
    delivery.attempts.push(attempt);
    this.counters.webhook_attempts += 1;
  }

  finishDelivery(delivery: WebhookDelivery, outcome: 'delivered' | 'failed'): void {
    delivery.outcome = outcome;
    if (outcome === 'delivered') this.counters.webhooks_sent += 1;
    else this.counters.webhooks_failed += 1;
  }

  listDeliveries(): readonly WebhookDelivery[] {
    return this.deliveries;
  }

  pendingDeliveries(): number {
    return this.deliveries.filter((d) => d.outcome === 'pending').length;
  }

  /** Forgets deliveries and counters; webhook configurations stay (they are account set-up). */
  reset(): void {
    this.deliveries.length = 0;
    this.counters = { webhooks_sent: 0, webhooks_failed: 0, webhook_attempts: 0 };
  }

  /** Webhook configurations only: deliveries are a log that a restart starts afresh. */
  snapshot(): Map<string, StoredWebhook[]> {
    return this.byAccount;
  }

  restore(snapshot: Map<string, StoredWebhook[]>): void {
    refill(this.byAccount, snapshot);
  }
}

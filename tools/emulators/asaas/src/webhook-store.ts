/**
 * Webhook configurations (`/v3/webhooks`, up to 10 per account, as Asaas allows) and the record of
 * every delivery with its attempts. URLs are kept as registered (they may carry the integrator's
 * secret in the query string); deliveries record them without the query.
 */
import { DeliveryLog, refill, type DeliveryRecord } from '../../kit';
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

export interface WebhookDelivery extends DeliveryRecord {
  id: number;
  webhookId: string;
  accountId: string;
  eventId: string;
  event: string;
  paymentId?: string;
  urlWithoutQuery: string;
}

export const MAX_WEBHOOKS_PER_ACCOUNT = 10;

export class WebhookStore {
  private readonly byAccount = new Map<string, StoredWebhook[]>();
  readonly deliveries = new DeliveryLog<WebhookDelivery>();

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

  listDeliveries(): readonly WebhookDelivery[] {
    return this.deliveries.list();
  }

  /** Webhook configurations only: deliveries are a log that a restart starts afresh. */
  snapshot(): Map<string, StoredWebhook[]> {
    return this.byAccount;
  }

  restore(snapshot: Map<string, StoredWebhook[]>): void {
    refill(this.byAccount, snapshot);
  }
}

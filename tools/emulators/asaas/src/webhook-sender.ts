/**
 * Outbound webhooks, the way Asaas sends them: `POST` to the URL as registered (query included),
 * body `{id:"evt_…", event, dateCreated, payment:{…}}`, header `asaas-access-token: <authToken>`
 * when the webhook has one. Only HTTP 200 counts as delivered (docs.asaas.com "FAQ de Webhooks");
 * anything else is retried with growing delays, and after 15 consecutive failures the webhook's
 * queue is interrupted. Here the retries are few and short (configurable).
 */
import { WebhookOutbox, withoutQuery } from '../../kit';
import { newEventId } from './asaas-ids';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { writeJson } from './money-json';
import { spDateTime } from './sao-paulo-time';
import type { StoredWebhook, WebhookDelivery } from './webhook-store';

const INTERRUPT_AFTER_FAILURES = 15;

export class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
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

  /** Sends `event` about an object other than a payment (`{…, [key]: object}`), as paymentEvent does. */
  accountEvent(accountId: string, event: string, key: string, object: unknown): string {
    const eventId = newEventId();
    const subscribers = this.state.webhooks.subscribers(accountId, event);
    if (subscribers.length === 0) return eventId;
    const body = writeJson({ id: eventId, event, dateCreated: spDateTime(this.state.now()), [key]: object });
    for (const webhook of subscribers) this.deliver(webhook, { eventId, event }, body);
    return eventId;
  }

  private deliver(webhook: StoredWebhook, about: { eventId: string; event: string; paymentId?: string }, body: string): void {
    const delivery = this.log.start({
      webhookId: webhook.id,
      accountId: webhook.accountId,
      ...about,
      urlWithoutQuery: withoutQuery(webhook.url),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Asaas_Hmlg/3.0 (emulator)' };
    if (webhook.authToken) headers['asaas-access-token'] = webhook.authToken;
    this.enqueue({
      delivery,
      url: webhook.url,
      body,
      headers: () => headers,
      // Only HTTP 200 counts as received (docs.asaas.com "FAQ de Webhooks").
      accepted: (status) => status === 200,
      afterAttempt: (received) => {
        if (received) {
          webhook.consecutiveFailures = 0;
          return;
        }
        webhook.consecutiveFailures += 1;
        if (webhook.consecutiveFailures >= INTERRUPT_AFTER_FAILURES) webhook.interrupted = true;
      },
      logFields: { event: about.event },
    });
  }
}

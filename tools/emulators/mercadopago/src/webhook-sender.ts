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
import { WebhookOutbox, withoutQuery } from '../../kit';
import type { EmulatorState, StoredPayment, WebhookDelivery } from './emulator-state';
import { signatureHeader } from './webhook-signature';
import type { StoredChargeback } from './chargebacks';

export type PaymentAction = 'payment.created' | 'payment.updated';

interface Outbound {
  url: URL;
  body: string;
  /** Headers of one attempt (signature and request id are fresh each time). */
  headers: (attempt: number) => Record<string, string>;
}

export class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
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

  /**
   * The `chargebacks` notification of a chargeback opened or changed: Webhooks format only, signed
   * like a payment's, `data.id` = the chargeback id. Sent to the URL configured in the dashboard
   * (where Mercado Pago's chargeback topic is switched on); the emulator falls back to the payment's
   * `notification_url` so a stack without a dashboard still hears it.
   */
  notifyChargeback(payment: StoredPayment, chargeback: StoredChargeback, action: 'created' | 'updated'): boolean {
    const account = this.state.accountForUser(payment.userId);
    const configured = account?.dashboardWebhookUrl ?? payment.request.notificationUrl;
    if (!account || !configured) return false;
    const url = new URL(configured);
    url.searchParams.append('data.id', chargeback.id);
    url.searchParams.append('type', 'chargebacks');
    const body = JSON.stringify({
      action,
      api_version: 'v1',
      data: { id: chargeback.id },
      date_created: this.state.now().toISOString(),
      id: this.state.allocateNotificationId(),
      live_mode: false,
      type: 'chargebacks',
      user_id: payment.userId,
    });
    this.send('webhook', payment, `chargebacks.${action}`, {
      url,
      body,
      headers: (attempt) => {
        const requestId = randomUUID();
        return {
          'x-request-id': requestId,
          'x-signature': signatureHeader(account.webhookSecret, chargeback.id, requestId, this.state.now()),
          'x-retry': String(attempt),
        };
      },
    });
    return true;
  }

  private send(kind: WebhookDelivery['kind'], payment: StoredPayment, action: string, outbound: Outbound): void {
    const delivery = this.log.start({ kind, userId: payment.userId, paymentId: payment.id, action, urlWithoutQuery: withoutQuery(outbound.url) });
    this.enqueue({
      delivery,
      url: outbound.url,
      body: outbound.body,
      headers: (attempt) => ({ 'content-type': 'application/json', 'user-agent': 'restclient-node/4.15.3', 'x-socket-timeout': '22000', ...outbound.headers(attempt) }),
      // Mercado Pago counts 200 and 201 as received; anything else is retried.
      accepted: (status) => status === 200 || status === 201,
      logFields: { kind },
    });
  }
}

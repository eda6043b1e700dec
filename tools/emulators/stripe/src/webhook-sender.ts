/**
 * Outbound webhooks, the way Stripe sends them: each event goes to every enabled endpoint of the
 * account that subscribes to its type (or `*`) — an event of a connected account to the platform's
 * Connect endpoints (`connect=true`) only, the account's own events to the others — as `POST <url>` with the event as pretty-printed
 * JSON, `Content-Type: application/json; charset=utf-8`, `User-Agent: Stripe/1.0 (+https://stripe.com/docs/webhooks)`
 * and a `Stripe-Signature` made with that endpoint's secret. Any non-2xx or transport error is
 * retried with exponential backoff, each attempt signed anew with a fresh timestamp (Stripe: for
 * up to 3 days in live mode; here a few short retries, configurable).
 */
import { WebhookOutbox, withoutQuery } from '../../kit';
import type { EmulatorState, WebhookDelivery, WebhookEndpoint } from './emulator-state';
import type { StripeEvent } from './events';
import { signatureHeader } from './webhook-signature';

export function subscribes(endpoint: WebhookEndpoint, type: string): boolean {
  return endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type);
}

export class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
  /** Sends the event in the background to every endpoint of the account that wants it. */
  dispatch(accountId: string, event: StripeEvent): void {
    this.send(accountId, event, this.state.listEndpoints(accountId).filter((endpoint) => !endpoint.connect && subscribes(endpoint, event.type)));
  }

  /** An event of one of the platform's connected accounts: to the platform's Connect endpoints only, naming the account. */
  dispatchConnect(platformId: string, connectedId: string, event: StripeEvent): void {
    event.account = connectedId;
    this.send(platformId, event, this.state.listEndpoints(platformId).filter((endpoint) => endpoint.connect === true && subscribes(endpoint, event.type)));
  }

  private send(accountId: string, event: StripeEvent, targets: WebhookEndpoint[]): void {
    if (targets.length === 0) return;
    event.pending_webhooks = targets.length;
    const payload = JSON.stringify(event, null, 2);
    const paymentIntentId = paymentIntentOf(event);
    for (const endpoint of targets) {
      const delivery = this.log.start({
        eventId: event.id,
        eventType: event.type,
        accountId,
        endpointId: endpoint.id,
        urlWithoutQuery: withoutQuery(endpoint.url),
        ...(paymentIntentId ? { paymentIntentId } : {}),
      });
      this.enqueue({
        delivery,
        url: endpoint.url,
        body: payload,
        // Signed anew on every attempt, with that attempt's timestamp.
        headers: () => ({
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(endpoint.secret, this.state.nowSeconds(), payload, event.livemode),
        }),
        logFields: { event: event.type },
      });
    }
  }
}

function paymentIntentOf(event: StripeEvent): string | undefined {
  const object = event.data.object as { object?: unknown; id?: unknown; payment_intent?: unknown };
  if (object.object === 'payment_intent' && typeof object.id === 'string') return object.id;
  return typeof object.payment_intent === 'string' ? object.payment_intent : undefined;
}

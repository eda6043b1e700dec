import type { EventEnvelope } from '@orquestra/platform';
import type { WebhookDeliveryDoc } from '../db/webhook-delivery.model';
import type { WebhookEndpointDoc } from '../db/webhook-endpoint.model';
import type { WebhookDeliveryStore } from '../db/webhook-delivery.store';
import type { WebhookEndpointStore } from '../db/webhook-endpoint.store';
import { endpointWantsEvent } from '../domain/endpoint-matching';

/**
 * A first attempt made at once for each delivery queued (main.ts): `reserve` answers the lease
 * end when there is room to attempt now (the delivery is then stored already leased, and handed to
 * `attempt`), null when there is not (stored due now, for due work: `queued`); `release` gives
 * back a reservation whose delivery was not stored.
 */
export interface FirstAttempts {
  reserve(): Date | null;
  release(): void;
  attempt(delivery: WebhookDeliveryDoc, endpoint: WebhookEndpointDoc): void;
  queued(): void;
}

/**
 * Queues one delivery per endpoint that wants the event. Idempotent: run again for the same event
 * (a redelivered message), it queues nothing new. Answers how many deliveries it queued.
 */
export async function fanOutEvent(
  event: Pick<EventEnvelope, 'id' | 'type' | 'merchant_id' | 'mode' | 'source'>,
  endpoints: WebhookEndpointStore,
  deliveries: WebhookDeliveryStore,
  /** Told of each delivery queued now and the endpoint it goes to, e.g. to attempt it at once. */
  now?: FirstAttempts,
): Promise<number> {
  const candidates = await endpoints.enabledFor(event.merchant_id, event.mode);
  let queued = 0;
  for (const endpoint of candidates) {
    if (!endpointWantsEvent(endpoint, { type: event.type, merchant_id: event.merchant_id, mode: event.mode, source: event.source ?? null })) continue;
    const lease = now?.reserve() ?? null;
    let created: WebhookDeliveryDoc | null;
    try {
      created = await deliveries.enqueue(
        { endpoint_id: endpoint._id, event_id: event.id, event_type: event.type, merchant_id: event.merchant_id, mode: event.mode },
        lease ?? undefined,
      );
    } catch (error) {
      if (lease) now?.release();
      throw error;
    }
    if (!created) {
      if (lease) now?.release();
      continue;
    }
    queued += 1;
    if (lease) now?.attempt(created, endpoint);
    else now?.queued();
  }
  return queued;
}

import { newId, type EventEnvelope } from '@orquestra/platform';
import { publicSubscriptionObject } from './subscription.mapper';
import type { SubscriptionDoc } from './subscription.model';

/** The event for `doc` as it is after the change (data.object is the public subscription). */
export function subscriptionEvent(type: string, doc: SubscriptionDoc): EventEnvelope {
  return {
    id: newId('event'),
    type,
    created: Math.floor(Date.now() / 1000),
    merchant_id: doc.merchant_id,
    mode: doc.mode,
    source: doc.source_key_id || null,
    data: { object: publicSubscriptionObject(doc) },
  };
}

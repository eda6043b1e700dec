import { newEvent, type EventEnvelope } from '@orquestra/platform';
import { publicSubscriptionObject } from './subscription.mapper';
import type { SubscriptionDoc } from './subscription.model';

/** The event for `doc` as it is after the change (data.object is the public subscription). */
export function subscriptionEvent(type: string, doc: SubscriptionDoc): EventEnvelope {
  return newEvent(type, doc, publicSubscriptionObject(doc));
}

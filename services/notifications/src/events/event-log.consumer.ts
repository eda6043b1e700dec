import { EVENT_RESOURCES, isPublicEventType } from '@orquestra/contracts';
import { isDuplicateKeyError, type EventBus, type EventEnvelope } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { EventDoc, EventModel } from '../db/event.model';

/**
 * Routing-key patterns of every public resource of the catalogue (`payment.*`, …,
 * `integration.*`), so a resource added there is logged and delivered without touching this list;
 * internal events (`internal.*`) are not logged.
 */
export const EVENT_LOG_PATTERNS: readonly string[] = EVENT_RESOURCES.map((resource) => `${resource}.*`);

/** The payment an event concerns: the payment itself, or the one its refund or dispute belongs to. */
export function paymentIdOf(object: Record<string, unknown>): string {
  if (object.object === 'payment' && typeof object.id === 'string') return object.id;
  return typeof object.payment_id === 'string' ? object.payment_id : '';
}

/**
 * Records every public event in the unified log, then hands it to `afterStore` (the webhook
 * fan-out). Idempotent by event id: a redelivered event hits the unique `_id`, is not stored twice,
 * and `afterStore` runs again (it is idempotent too), so a crash between the two steps loses
 * nothing. The message is acknowledged only after both.
 */
export async function startEventLogConsumer(
  bus: EventBus,
  events: EventModel,
  logger: Logger,
  /** Given the envelope and the log entry as stored (or as stored before, on a redelivery). */
  afterStore: (event: EventEnvelope, stored: EventDoc) => Promise<void> = async () => undefined,
): Promise<void> {
  await bus.consume({ queue: 'notifications.event-log', patterns: [...EVENT_LOG_PATTERNS] }, async (event: EventEnvelope) => {
    if (!isPublicEventType(event.type)) {
      logger.warn({ type: event.type, event_id: event.id }, 'unknown public event type recorded');
    }
    const object = event.data?.object ?? {};
    const entry: EventDoc = {
      _id: event.id,
      type: event.type,
      created: event.created,
      merchant_id: event.merchant_id,
      mode: event.mode,
      source: event.source ?? null,
      resource_id: typeof object.id === 'string' ? object.id : '',
      payment_id: paymentIdOf(object),
      data: { object },
      received_at: new Date(),
    };
    try {
      await events.create(entry);
    } catch (error) {
      // A redelivery: the entry stored the first time has the same content (events are immutable).
      if (!isDuplicateKeyError(error)) throw error;
    }
    await afterStore(event, entry);
  });
}

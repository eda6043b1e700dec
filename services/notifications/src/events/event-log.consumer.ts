import { isPublicEventType } from '@orquestra/contracts';
import { isDuplicateKeyError, type EventBus, type EventEnvelope } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { EventModel } from '../db/event.model';

/** Routing-key patterns of every public resource; internal events (`internal.*`) are not logged. */
export const EVENT_LOG_PATTERNS = ['payment.*', 'refund.*', 'dispute.*', 'subscription.*', 'subaccount.*', 'payout.*', 'card.*'];

/**
 * Records every public event in the unified log. Idempotent by event id: a redelivered event hits
 * the unique `_id` and is acknowledged without a second copy.
 */
export async function startEventLogConsumer(bus: EventBus, events: EventModel, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'notifications.event-log', patterns: EVENT_LOG_PATTERNS }, async (event: EventEnvelope) => {
    if (!isPublicEventType(event.type)) {
      logger.warn({ type: event.type, event_id: event.id }, 'unknown public event type recorded');
    }
    const object = event.data?.object ?? {};
    try {
      await events.create({
        _id: event.id,
        type: event.type,
        created: event.created,
        merchant_id: event.merchant_id,
        mode: event.mode,
        source: event.source ?? null,
        resource_id: typeof object.id === 'string' ? object.id : '',
        data: { object },
        received_at: new Date(),
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  });
}

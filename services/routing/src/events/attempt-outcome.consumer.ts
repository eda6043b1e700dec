import { PAYMENT_ATTEMPT_RECORDED, paymentAttemptRecordedSchema } from '@orquestra/contracts';
import { isDuplicateKeyError, type EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { AttemptOutcomeModel } from '../db/attempt-outcome.model';

/** Records every provider attempt's outcome for health-aware routing. Idempotent by event id. */
export async function startAttemptOutcomeConsumer(bus: EventBus, outcomes: AttemptOutcomeModel, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'routing.attempt-outcomes', patterns: [PAYMENT_ATTEMPT_RECORDED] }, async (event) => {
    const parsed = paymentAttemptRecordedSchema.safeParse(event.data?.object);
    if (!parsed.success) {
      logger.error({ event_id: event.id }, 'malformed attempt event dropped');
      return;
    }
    try {
      await outcomes.create({
        _id: event.id,
        merchant_id: event.merchant_id,
        account_id: parsed.data.provider_account_id,
        outcome: parsed.data.outcome,
        failure_code: parsed.data.failure_code,
        latency_ms: parsed.data.latency_ms,
        at: new Date(parsed.data.at),
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  });
}

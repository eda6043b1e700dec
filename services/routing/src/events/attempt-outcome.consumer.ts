import { PAYMENT_ATTEMPT_RECORDED, paymentAttemptRecordedSchema } from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { AccountHealth } from '../domain/account-health';

/** Counts every provider attempt's outcome for health-aware routing. */
export async function startAttemptOutcomeConsumer(bus: EventBus, health: AccountHealth, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'routing.attempt-outcomes', patterns: [PAYMENT_ATTEMPT_RECORDED] }, async (event) => {
    const parsed = paymentAttemptRecordedSchema.safeParse(event.data?.object);
    if (!parsed.success) {
      logger.error({ event_id: event.id }, 'malformed attempt event dropped');
      return;
    }
    await health.record({
      merchant_id: event.merchant_id,
      account_id: parsed.data.provider_account_id,
      outcome: parsed.data.outcome,
      at: new Date(parsed.data.at),
    });
  });
}

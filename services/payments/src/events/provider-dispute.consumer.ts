import { PROVIDER_DISPUTE_UPDATED, providerDisputeUpdatedSchema } from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { ProviderDisputeIntake } from '../orchestration/provider-dispute-intake';

/**
 * Applies disputes reported by providers (MED notices, chargebacks). A dispute can name a charge
 * whose payment has not recorded it yet (a webhook racing the payment's own write): throwing makes
 * the bus redeliver (bounded, then dead-lettered), so the report is not lost. Applying twice is a
 * no-op (ProviderDisputeIntake).
 */
export async function startProviderDisputeConsumer(bus: EventBus, intake: ProviderDisputeIntake, logger: Logger): Promise<void> {
  await bus.consume(
    { queue: 'payments.provider-disputes', patterns: [PROVIDER_DISPUTE_UPDATED], maxAttempts: 10, retryDelayMs: 2_000 },
    async (event, delivery) => {
      const parsed = providerDisputeUpdatedSchema.safeParse(event.data?.object);
      if (!parsed.success) {
        logger.error({ event_id: event.id }, 'malformed provider dispute event dropped');
        return;
      }
      const result = await intake.apply(parsed.data);
      if (result === 'unknown_payment') {
        throw new Error(`no payment for disputed ${parsed.data.end_to_end_id ?? parsed.data.provider_payment_id ?? '?'} at ${parsed.data.account_id} (attempt ${delivery.attempt})`);
      }
    },
  );
}

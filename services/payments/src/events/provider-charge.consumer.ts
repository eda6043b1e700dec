import { PROVIDER_CHARGE_UPDATED, providerChargeUpdatedSchema } from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { ProviderChargeUpdates } from '../orchestration/provider-charge-updates';

/**
 * Applies provider-reported charge changes to payments. A webhook can arrive before the payment
 * that created the charge has recorded the charge id; throwing makes the bus redeliver it later
 * (bounded), so such a webhook is not lost. Applying twice is a no-op (conditional transitions).
 */
export async function startProviderChargeConsumer(bus: EventBus, updates: ProviderChargeUpdates, logger: Logger): Promise<void> {
  await bus.consume(
    { queue: 'payments.provider-charges', patterns: [PROVIDER_CHARGE_UPDATED], maxAttempts: 15, retryDelayMs: 2_000 },
    async (event, delivery) => {
      const parsed = providerChargeUpdatedSchema.safeParse(event.data?.object);
      if (!parsed.success) {
        logger.error({ event_id: event.id }, 'malformed provider charge event dropped');
        return;
      }
      const result = await updates.apply(parsed.data);
      if (result === 'unknown_payment') {
        throw new Error(`no payment yet for charge ${parsed.data.provider_payment_id} (attempt ${delivery.attempt})`);
      }
    },
  );
}

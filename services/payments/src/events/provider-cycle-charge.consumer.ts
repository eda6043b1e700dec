import { PROVIDER_CYCLE_CHARGE_UPDATED, providerCycleChargeUpdatedSchema } from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { CycleChargeUpdates } from '../orchestration/cycle-charge-state';

/**
 * Applies provider-reported changes of Pix Automático cycle charges to their payments. A report
 * can arrive before the payment records the charge (a charge the provider made itself, adopted
 * by the subscriptions service a moment later; a create whose answer is still being written):
 * throwing makes the bus redeliver it later (bounded). Applying twice is a no-op.
 */
export async function startProviderCycleChargeConsumer(bus: EventBus, updates: CycleChargeUpdates, logger: Logger): Promise<void> {
  await bus.consume(
    { queue: 'payments.provider-cycle-charges', patterns: [PROVIDER_CYCLE_CHARGE_UPDATED], maxAttempts: 15, retryDelayMs: 2_000 },
    async (event, delivery) => {
      const parsed = providerCycleChargeUpdatedSchema.safeParse(event.data?.object);
      if (!parsed.success) {
        logger.error({ event_id: event.id }, 'malformed provider cycle charge event dropped');
        return;
      }
      const result = await updates.apply(parsed.data);
      if (result === 'unknown_payment') {
        throw new Error(`no payment yet for cycle charge ${parsed.data.provider_charge_id} (attempt ${delivery.attempt})`);
      }
    },
  );
}

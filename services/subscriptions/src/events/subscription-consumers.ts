import {
  PROVIDER_CYCLE_CHARGE_UPDATED,
  PROVIDER_RECURRENCE_UPDATED,
  providerCycleChargeUpdatedSchema,
  providerRecurrenceUpdatedSchema,
} from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { CyclesService } from '../use-cases/cycles.service';
import type { SubscriptionsService } from '../use-cases/subscriptions.service';

/** The final statuses of a cycle payment, as payments publishes them. */
export const CYCLE_PAYMENT_OUTCOMES = ['payment.succeeded', 'payment.failed', 'payment.canceled'] as const;

/**
 * What moves subscriptions and cycles from outside: the provider's reports (providers service)
 * and the cycle payments' final statuses (payments service). A handler that throws is redelivered
 * (bounded): a report about a cycle whose charge id is being recorded finds it a moment later.
 * Every write behind them is conditional, so a redelivery changes nothing.
 */
export async function startSubscriptionConsumers(bus: EventBus, subscriptions: SubscriptionsService, cycles: CyclesService, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'subscriptions.provider-recurrences', patterns: [PROVIDER_RECURRENCE_UPDATED], maxAttempts: 15, retryDelayMs: 2_000 }, async (event) => {
    const parsed = providerRecurrenceUpdatedSchema.safeParse(event.data?.object);
    if (!parsed.success) return void logger.error({ event_id: event.id }, 'malformed provider recurrence event dropped');
    await subscriptions.applyReportedStatus(parsed.data.account_id, parsed.data.provider_recurrence_id, parsed.data.status);
    await cycles.adoptListedCycles(parsed.data.account_id, parsed.data.provider_recurrence_id, parsed.data.cycle_charge_ids ?? []);
  });
  await bus.consume({ queue: 'subscriptions.provider-cycle-charges', patterns: [PROVIDER_CYCLE_CHARGE_UPDATED], maxAttempts: 15, retryDelayMs: 2_000 }, async (event) => {
    const parsed = providerCycleChargeUpdatedSchema.safeParse(event.data?.object);
    if (!parsed.success) return void logger.error({ event_id: event.id }, 'malformed provider cycle charge event dropped');
    await cycles.applyCycleCharge(parsed.data);
  });
  await bus.consume({ queue: 'subscriptions.cycle-payments', patterns: [...CYCLE_PAYMENT_OUTCOMES], maxAttempts: 15, retryDelayMs: 2_000 }, async (event) => {
    const object = event.data?.object;
    if (object && typeof object === 'object') await cycles.applyPaymentOutcome(event.type, object as Record<string, unknown>);
  });
}

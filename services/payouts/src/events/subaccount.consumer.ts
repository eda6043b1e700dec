import { PROVIDER_SUBACCOUNT_UPDATED, providerSubaccountUpdatedSchema } from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { SubaccountsService } from '../use-cases/subaccounts.service';

/**
 * The providers' reports of subaccount statuses (onboarding approved, refused, blocked). A report
 * about a subaccount still being created is redelivered (bounded) until it is shown.
 */
export async function startSubaccountConsumer(bus: EventBus, service: SubaccountsService, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'payouts.provider-subaccounts', patterns: [PROVIDER_SUBACCOUNT_UPDATED], maxAttempts: 15, retryDelayMs: 2_000 }, async (event, delivery) => {
    const parsed = providerSubaccountUpdatedSchema.safeParse(event.data?.object);
    if (!parsed.success) return void logger.error({ event_id: event.id }, 'malformed provider subaccount event dropped');
    if ((await service.applyReported(parsed.data)) === 'unknown') {
      throw new Error(`no subaccount yet for ${parsed.data.provider_subaccount_id} (attempt ${delivery.attempt})`);
    }
  });
}

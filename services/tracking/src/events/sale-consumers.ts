import type { EventBus } from '@orquestra/platform';
import type { SalesService } from '../use-cases/sales.service';

/** What tracking reads from the bus: every payment event (a subscription's cycles are payments, with their subscription_id), and a dispute's outcome (chargeback lost). */
export const SALE_EVENT_PATTERNS = ['payment.*', 'dispute.closed'] as const;

/**
 * Sales are kept from the payments and disputes events (a durable queue of tracking's own). A
 * dispute about a payment whose sale is not stored yet throws, and the bus redelivers it a few
 * seconds later, a bounded number of times (then it is parked in the dead-letter queue). Every
 * write behind them is conditional, so a redelivery or a late event changes nothing.
 */
export async function startSaleConsumers(bus: EventBus, sales: SalesService): Promise<void> {
  await bus.consume({ queue: 'tracking.sales', patterns: [...SALE_EVENT_PATTERNS], maxAttempts: 15, retryDelayMs: 2_000 }, async (event) => {
    await sales.applyEvent(event);
  });
}

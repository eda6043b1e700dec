import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import { SaleNotKnownYet, type SalesService } from '../use-cases/sales.service';

/** What tracking reads from the bus: every payment event (a subscription's cycles are payments, with their subscription_id), and a dispute's outcome (chargeback lost). */
export const SALE_EVENT_PATTERNS = ['payment.*', 'dispute.closed'] as const;

const MAX_ATTEMPTS = 15;

/**
 * Sales are kept from the payments and disputes events (a durable queue of tracking's own). A
 * dispute about a payment whose sale is not stored yet throws, and the bus redelivers it a few
 * seconds later, a bounded number of times. On the last delivery it is dropped with a warning
 * rather than parked for a person: a sale tracking never saw (a payment from before tracking ran,
 * or one whose sale expired after 60 days) has nothing to send the tools, which refuse orders
 * older than 45 days anyway. Every write behind them is conditional, so a redelivery or a late
 * event changes nothing.
 */
export async function startSaleConsumers(bus: EventBus, sales: SalesService, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'tracking.sales', patterns: [...SALE_EVENT_PATTERNS], maxAttempts: MAX_ATTEMPTS, retryDelayMs: 2_000 }, async (event, delivery) => {
    try {
      await sales.applyEvent(event);
    } catch (error) {
      if (error instanceof SaleNotKnownYet && delivery.attempt >= MAX_ATTEMPTS) {
        logger.warn({ event_id: event.id, type: event.type }, 'event about a sale tracking never saw dropped');
        return;
      }
      throw error;
    }
  });
}

import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { DeliveryDoc, DeliveryModel } from '../db/delivery.model';
import type { DeliveriesService } from '../use-cases/deliveries.service';

/**
 * Deliveries are due work (ARCHITECTURE.md "Scheduled work"): a pending delivery's `due_at` is its
 * next attempt. The claim's lease outlasts one send (the tool's timeout plus a margin), so no
 * other replica takes it while it is on its way; a replica that dies mid-send leaves it due again
 * when the lease ends, and a worker started later (after a restart) finds it by its scan.
 */
export function deliveryWorker(deliveries: DeliveryModel, service: DeliveriesService, logger: Logger, options: { pollIntervalMs: number; toolTimeoutMs: number }) {
  return new DueWorker<DeliveryDoc>({
    name: 'integration-delivery',
    collection: deliveries.collection as never,
    filter: { status: 'pending' },
    logger,
    pollIntervalMs: options.pollIntervalMs,
    leaseMs: options.toolTimeoutMs + 30_000,
    handle: async (claimed, log) => service.attempt(claimed, log),
  });
}

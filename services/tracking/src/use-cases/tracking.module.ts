import { INTEGRATIONS_CHANGED } from '@orquestra/contracts';
import { InvalidatingCache, type EventBus, type OutboxRelay, type SecretBox } from '@orquestra/platform';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { registerDeliveryModel } from '../db/delivery.model';
import { registerIntegrationModel, type IntegrationDoc } from '../db/integration.model';
import { registerSaleModel } from '../db/sale.model';
import { registerVisitModel } from '../db/visit.model';
import { startSaleConsumers } from '../events/sale-consumers';
import { deliveryWorker } from '../jobs/delivery-worker';
import type { AdTool, IntegrationKindId } from '../tools/ad-tool';
import { DeliveriesService } from './deliveries.service';
import { IntegrationsService } from './integrations.service';
import { SalesService } from './sales.service';
import { VisitsService } from './visits.service';

export interface TrackingModuleOptions {
  db: Connection;
  outbox: OutboxRelay;
  logger: Logger;
  box: SecretBox;
  tools: Record<IntegrationKindId, AdTool>;
  toolTimeoutMs: number;
  retryScheduleMs: readonly number[];
  pollIntervalMs: number;
  onOutcome?: (kind: IntegrationKindId, outcome: string) => void;
  /**
   * The longest a merchant's enabled integrations are served from the cache every sale event reads,
   * should a change signal be lost (docs/decisions.md "Caches"); 0 turns the cache off. Default 30 s.
   */
  integrationCacheTtlMs?: number;
}

/**
 * The tracking service's parts wired together, shared by main.ts and the integration specs:
 * models (register before ensureIndexes), use cases, the delivery worker.
 */
export function createTrackingModule(options: TrackingModuleOptions) {
  const { db, logger } = options;
  const integrationModel = registerIntegrationModel(db);
  const visitModel = registerVisitModel(db);
  const saleModel = registerSaleModel(db);
  const deliveryModel = registerDeliveryModel(db);

  // The parts call one another only later (events, deletes, due work), through these closures.
  const visits = new VisitsService(visitModel);
  const integrations = new IntegrationsService(integrationModel, options.box, options.tools, (integration) => deliveries.integrationDeleted(integration));
  const sales = new SalesService(
    saleModel,
    logger,
    (sale, stage) => deliveries.saleReached(sale, stage),
    async (merchantId, mode) => (await integrations.enabledFor(merchantId, mode)).length > 0,
  );
  const deliveries: DeliveriesService = new DeliveriesService(deliveryModel, integrationModel, integrations, sales, visits, options.tools, options.outbox, logger, {
    toolTimeoutMs: options.toolTimeoutMs,
    retryScheduleMs: options.retryScheduleMs,
    // The first attempt runs at once, off the event handler (a slow tool never holds the queue).
    runNow: (delivery) => void worker.runNow(delivery),
    kickAt: (at) => worker.kickAt(at),
    onOutcome: options.onOutcome,
  });
  const worker = deliveryWorker(deliveryModel, deliveries, logger, { pollIntervalMs: options.pollIntervalMs, toolTimeoutMs: options.toolTimeoutMs });

  return {
    models: { integrationModel, visitModel, saleModel, deliveryModel },
    visits,
    integrations,
    sales,
    deliveries,
    worker,
    /** After ensureIndexes: the outbox watches deliveries, the worker starts, the consumers attach. */
    async start(bus: EventBus): Promise<void> {
      const ttlMs = options.integrationCacheTtlMs ?? 30_000;
      if (ttlMs > 0) {
        let signals: { live: boolean } = { live: false };
        const cache = new InvalidatingCache<IntegrationDoc[]>({ ttlMs, trusted: () => signals.live });
        // Cached per merchant (an integration takes test, live or both sales): the signal's mode means nothing.
        integrations.cacheEnabled(cache, (merchantId) => bus.signal(INTEGRATIONS_CHANGED, { merchant_id: merchantId, mode: 'live' }, {}));
        signals = await bus.subscribe([INTEGRATIONS_CHANGED], (event) => integrations.integrationsChanged(event.merchant_id), () => cache.clear());
      }
      await options.outbox.watch(deliveryModel.collection as never);
      worker.start();
      await startSaleConsumers(bus, sales, logger);
    },
  };
}

export type TrackingModule = ReturnType<typeof createTrackingModule>;

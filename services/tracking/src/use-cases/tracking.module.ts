import type { EventBus, OutboxRelay, SecretBox } from '@orquestra/platform';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { registerDeliveryModel } from '../db/delivery.model';
import { registerIntegrationModel } from '../db/integration.model';
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
  const sales = new SalesService(saleModel, logger, (sale, stage) => deliveries.saleReached(sale, stage));
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
      await options.outbox.watch(deliveryModel.collection as never);
      worker.start();
      await startSaleConsumers(bus, sales, logger);
    },
  };
}

export type TrackingModule = ReturnType<typeof createTrackingModule>;

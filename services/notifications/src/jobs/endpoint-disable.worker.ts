import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { WebhookEndpointDoc } from '../db/webhook-endpoint.model';
import type { WebhookEndpointStore } from '../db/webhook-endpoint.store';

/**
 * Disables endpoints that have been failing for the whole disable period (5 days by default), at
 * the end of that period, whether or not a delivery happens to fail then: retries of one event stop
 * after 3 days, and an endpoint that gets no new events would otherwise never be disabled.
 * Due work: safe with any number of replicas.
 */
export function createEndpointDisableWorker(options: {
  endpoints: WebhookEndpointStore;
  logger: Logger;
  disableAfterMs: number;
  pollIntervalMs: number;
}): DueWorker<WebhookEndpointDoc> {
  return new DueWorker<WebhookEndpointDoc>({
    name: 'webhook-endpoint-disable',
    collection: options.endpoints.collection,
    filter: { enabled: true },
    logger: options.logger,
    pollIntervalMs: options.pollIntervalMs,
    handle: async (endpoint, logger) => {
      if (await options.endpoints.disableIfStillFailing(endpoint, options.disableAfterMs)) {
        logger.warn({ endpoint_id: endpoint._id, failing_since: endpoint.failing_since }, 'webhook endpoint disabled: failing for the whole disable period');
      }
    },
  });
}

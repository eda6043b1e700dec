import type { tracking } from '@orquestra/contracts';
import type { Handlers } from '@orquestra/platform';
import { toProtoDelivery, type DeliveriesService } from '../use-cases/deliveries.service';
import { toProtoIntegration, toProtoKind, type IntegrationsService } from '../use-cases/integrations.service';
import { fullKeyScope } from '../use-cases/scope';
import type { VisitsService } from '../use-cases/visits.service';

/**
 * Thin: the caller's scope and the request to the use cases, their answer to the message. Nothing
 * here logs a request: Create/UpdateIntegration carry credentials.
 */
export function trackingHandlers(visits: VisitsService, integrations: IntegrationsService, deliveries: DeliveriesService): Handlers<typeof tracking.TrackingServiceService> {
  return {
    async recordVisit(request) {
      await visits.record(request);
      return {};
    },

    async listIntegrationKinds(request) {
      fullKeyScope(request.caller);
      return { kinds: integrations.kinds().map(toProtoKind) };
    },

    async createIntegration(request) {
      return { integration: toProtoIntegration(await integrations.create(fullKeyScope(request.caller), request)) };
    },

    async listIntegrations(request) {
      return { integrations: (await integrations.list(fullKeyScope(request.caller))).map(toProtoIntegration) };
    },

    async getIntegration(request) {
      return { integration: toProtoIntegration(await integrations.get(fullKeyScope(request.caller), request.integration_id)) };
    },

    async updateIntegration(request) {
      return { integration: toProtoIntegration(await integrations.update(fullKeyScope(request.caller), request)) };
    },

    async deleteIntegration(request) {
      return { integration: toProtoIntegration(await integrations.delete(fullKeyScope(request.caller), request.integration_id)) };
    },

    async listDeliveries(request) {
      const page = await deliveries.list(fullKeyScope(request.caller), request);
      return { deliveries: page.data.map(toProtoDelivery), has_more: page.hasMore };
    },

    async testIntegration(request) {
      return { delivery: toProtoDelivery(await deliveries.test(fullKeyScope(request.caller), request.integration_id)) };
    },
  };
}

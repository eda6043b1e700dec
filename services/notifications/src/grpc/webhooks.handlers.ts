import { modeFromName, modeName, type common, type webhooks } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { WebhookDeliveryDoc } from '../db/webhook-delivery.model';
import type { WebhookDeliveryStore } from '../db/webhook-delivery.store';
import type { WebhookEndpointDoc } from '../db/webhook-endpoint.model';
import { publicEndpointObject, type Scope, type WebhookEndpointStore } from '../db/webhook-endpoint.store';
import { checkEvents, checkOnlySource, checkUrl } from './webhook-endpoint.input';

const MAX_LIMIT = 100;

/** Full keys only (spec §5.4: restricted keys cannot touch webhooks); the gateway checks too. */
function scopeOf(caller: common.Caller | undefined): Scope {
  if (!caller) throw new AppError('unauthenticated');
  if (caller.restricted) throw new AppError('restricted_key');
  return { merchant_id: caller.merchant_id, mode: modeName(caller.mode) };
}

const limitOf = (limit: number) => Math.min(Math.max(limit || 10, 1), MAX_LIMIT);

export function toProtoEndpoint(doc: WebhookEndpointDoc): webhooks.WebhookEndpoint {
  const json = publicEndpointObject(doc);
  return {
    id: doc._id,
    url: doc.url,
    events: doc.events,
    only_source: doc.only_source ?? '',
    description: doc.description,
    enabled: doc.enabled,
    disabled_reason: doc.disabled_reason ?? '',
    mode: modeFromName(doc.mode),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    previous_secret_expires_at: (json.previous_secret_expires_at as string | null) ?? '',
    failing_since: doc.failing_since ? doc.failing_since.toISOString() : '',
  };
}

export function toProtoDelivery(doc: WebhookDeliveryDoc): webhooks.WebhookDelivery {
  return {
    id: doc._id,
    endpoint_id: doc.endpoint_id,
    event_id: doc.event_id,
    event_type: doc.event_type,
    status: doc.status,
    attempts: doc.attempts.map((attempt) => ({
      number: attempt.number,
      at: attempt.at.toISOString(),
      status_code: attempt.status_code,
      latency_ms: attempt.latency_ms,
      error: attempt.error,
      manual: attempt.manual,
    })),
    next_attempt_at: doc.due_at ? doc.due_at.toISOString() : '',
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

export function webhooksHandlers(
  endpoints: WebhookEndpointStore,
  deliveries: WebhookDeliveryStore,
  kick: () => void,
): Handlers<typeof webhooks.WebhooksServiceService> {
  return {
    async createWebhookEndpoint(request) {
      const scope = scopeOf(request.caller);
      const { doc, secret } = await endpoints.create(scope, {
        url: checkUrl(request.url, scope.mode),
        events: checkEvents(request.events),
        only_source: checkOnlySource(request.only_source),
        description: request.description,
      });
      return { endpoint: toProtoEndpoint(doc), secret };
    },

    async listWebhookEndpoints(request) {
      const scope = scopeOf(request.caller);
      const page = await endpoints.list(scope, limitOf(request.limit), request.starting_after);
      return { data: page.data.map(toProtoEndpoint), has_more: page.has_more };
    },

    async getWebhookEndpoint(request) {
      return { endpoint: toProtoEndpoint(await endpoints.get(scopeOf(request.caller), request.endpoint_id)) };
    },

    async updateWebhookEndpoint(request) {
      const scope = scopeOf(request.caller);
      const doc = await endpoints.update(scope, request.endpoint_id, {
        ...(request.url !== undefined ? { url: checkUrl(request.url, scope.mode) } : {}),
        ...(request.set_events ? { events: checkEvents(request.events) } : {}),
        ...(request.description !== undefined ? { description: request.description } : {}),
        ...(request.enabled !== undefined ? { enabled: request.enabled } : {}),
        ...(request.only_source !== undefined ? { only_source: checkOnlySource(request.only_source) } : {}),
      });
      return { endpoint: toProtoEndpoint(doc) };
    },

    async deleteWebhookEndpoint(request) {
      await endpoints.delete(scopeOf(request.caller), request.endpoint_id);
      return { id: request.endpoint_id };
    },

    async rotateWebhookSecret(request) {
      const { doc, secret } = await endpoints.rotateSecret(scopeOf(request.caller), request.endpoint_id);
      return { endpoint: toProtoEndpoint(doc), secret };
    },

    async listWebhookDeliveries(request) {
      const scope = scopeOf(request.caller);
      await endpoints.get(scope, request.endpoint_id);
      const page = await deliveries.list(scope, {
        endpoint_id: request.endpoint_id,
        status: request.status,
        event_id: request.event_id,
        limit: limitOf(request.limit),
        starting_after: request.starting_after,
      });
      return { data: page.data.map(toProtoDelivery), has_more: page.has_more };
    },

    async getWebhookDelivery(request) {
      return { delivery: toProtoDelivery(await deliveries.get(scopeOf(request.caller), request.delivery_id)) };
    },

    async resendWebhookDelivery(request) {
      const delivery = await deliveries.resend(scopeOf(request.caller), request.delivery_id);
      kick();
      return { delivery: toProtoDelivery(delivery) };
    },
  };
}

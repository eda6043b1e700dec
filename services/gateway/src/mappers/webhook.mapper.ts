import { modeName, type webhooks } from '@orquestra/contracts';
import type { WebhookDeliveryJson, WebhookEndpointJson } from '../schemas/webhook-endpoint.response.schema';

const orNull = (value: string): string | null => (value ? value : null);

export function toWebhookEndpointJson(endpoint: webhooks.WebhookEndpoint): WebhookEndpointJson {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    events: endpoint.events,
    only_source: orNull(endpoint.only_source),
    description: orNull(endpoint.description),
    enabled: endpoint.enabled,
    disabled_reason: (orNull(endpoint.disabled_reason) as WebhookEndpointJson['disabled_reason']) ?? null,
    mode: modeName(endpoint.mode),
    failing_since: orNull(endpoint.failing_since),
    previous_secret_expires_at: orNull(endpoint.previous_secret_expires_at),
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

export function toWebhookDeliveryJson(delivery: webhooks.WebhookDelivery): WebhookDeliveryJson {
  return {
    id: delivery.id,
    object: 'webhook_delivery',
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status as WebhookDeliveryJson['status'],
    attempts: delivery.attempts.map((attempt) => ({
      number: attempt.number,
      at: attempt.at,
      status_code: attempt.status_code || null,
      latency_ms: attempt.latency_ms,
      error: orNull(attempt.error),
      manual: attempt.manual,
    })),
    next_attempt_at: orNull(delivery.next_attempt_at),
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}

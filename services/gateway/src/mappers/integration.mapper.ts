import type { tracking } from '@orquestra/contracts';
import { INTEGRATION_KINDS, INTEGRATION_SALES } from '../schemas/integration.schema';
import {
  DELIVERY_EVENTS,
  DELIVERY_STATUSES,
  type IntegrationDeliveryJson,
  type IntegrationJson,
  type IntegrationKindJson,
} from '../schemas/integration.response.schema';
import { oneOf } from './narrow';
import { nullIfEmpty } from './nullable';

function toFieldJson(field: tracking.IntegrationField): IntegrationKindJson['credentials'][number] {
  return { name: field.name, label: field.label, required: field.required, description: nullIfEmpty(field.description) };
}

/** One kind (ListIntegrationKinds) as GET /v1/integration-kinds shows it. */
export function toIntegrationKindJson(kind: tracking.IntegrationKind): IntegrationKindJson {
  return {
    id: oneOf(INTEGRATION_KINDS, kind.id, 'integration kind id'),
    object: 'integration_kind',
    name: kind.name,
    description: kind.description,
    credentials: kind.credentials.map(toFieldJson),
    options: kind.options.map(toFieldJson),
    sends: kind.sends.map((event) => oneOf(DELIVERY_EVENTS, event, 'integration kind sends')),
  };
}

/**
 * An integration as the API shows it. Built field by field, so nothing the service may add later
 * (a sealed credential, say) can reach a client: credentials only ever appear as their last 4.
 */
export function toIntegrationJson(integration: tracking.Integration): IntegrationJson {
  return {
    id: integration.id,
    object: 'integration',
    kind: oneOf(INTEGRATION_KINDS, integration.kind, 'integration kind'),
    name: nullIfEmpty(integration.name),
    enabled: integration.enabled,
    sales: oneOf(INTEGRATION_SALES, integration.sales, 'integration sales'),
    options: { ...integration.options },
    credentials_last4: { ...integration.credentials_last4 },
    created_at: integration.created_at,
    updated_at: integration.updated_at,
  };
}

/** The stored request summary (JSON text of an object); empty when nothing was sent. */
function requestOf(summary: string, deliveryId: string): Record<string, unknown> | null {
  if (!summary) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(summary);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    // A contract break between services, like an undocumented enum value (narrow.ts): loud, not hidden.
    throw new Error(`the tracking service answered a request summary that is not a JSON object (delivery ${deliveryId})`);
  }
  return parsed as Record<string, unknown>;
}

/** One send (ListDeliveries, TestIntegration): empty strings are null, the summary is parsed. */
export function toIntegrationDeliveryJson(delivery: tracking.Delivery): IntegrationDeliveryJson {
  const answered = delivery.response_status !== 0 || delivery.response_body !== '';
  return {
    id: delivery.id,
    object: 'integration_delivery',
    integration_id: delivery.integration_id,
    payment_id: delivery.payment_id,
    event: oneOf(DELIVERY_EVENTS, delivery.event, 'delivery event'),
    test: delivery.test,
    status: oneOf(DELIVERY_STATUSES, delivery.status, 'delivery status'),
    reason: nullIfEmpty(delivery.reason),
    reason_text: nullIfEmpty(delivery.reason_text),
    attempts: delivery.attempts,
    next_attempt_at: nullIfEmpty(delivery.next_attempt_at),
    request: requestOf(delivery.request_summary, delivery.id),
    // Status 0 with a body: no HTTP answer, the body is the transport error (timeout, refused).
    response: answered ? { status: delivery.response_status || null, body: nullIfEmpty(delivery.response_body) } : null,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
    delivered_at: nullIfEmpty(delivery.delivered_at),
  };
}

import type { Mode, PageParams } from './common.types';

export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  events: string[];
  only_source: string | null;
  description: string | null;
  enabled: boolean;
  disabled_reason: 'by_request' | 'gone' | 'failing' | null;
  mode: Mode;
  failing_since: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Returned on create and on rotate-secret only: keep `secret` to verify deliveries. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export interface WebhookAttempt {
  number: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  manual: boolean;
}

export interface WebhookDelivery {
  id: string;
  object: 'webhook_delivery';
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed' | 'canceled';
  attempts: WebhookAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreateWebhookEndpointParams {
  url: string;
  /** Types, prefixes (payment.*) or *. */
  events: string[];
  /** key:<key id> — only events of payments that key created. */
  only_source?: string;
  description?: string;
}

export interface UpdateWebhookEndpointParams {
  url?: string;
  events?: string[];
  only_source?: string | null;
  description?: string;
  enabled?: boolean;
}

export interface ListWebhookDeliveriesParams extends PageParams {
  status?: WebhookDelivery['status'];
  event_id?: string;
}

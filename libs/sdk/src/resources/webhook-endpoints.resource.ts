import type { Query } from '../http/transport';
import type { Deleted, List, PageParams } from '../types/common.types';
import type {
  CreateWebhookEndpointParams,
  ListWebhookDeliveriesParams,
  UpdateWebhookEndpointParams,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../types/webhook-endpoint.types';
import { Resource, segment } from './resource';

/** /v1/webhook-endpoints: where events are delivered, signed with the endpoint's secret. */
export class WebhookEndpointsResource extends Resource {
  /** The answer carries `secret` (shown only here and on rotateSecret): keep it to verify deliveries. */
  create(params: CreateWebhookEndpointParams): Promise<WebhookEndpointWithSecret> {
    return this.call({ method: 'POST', path: '/v1/webhook-endpoints', body: params });
  }

  list(params: PageParams = {}): Promise<List<WebhookEndpoint>> {
    return this.call({ method: 'GET', path: '/v1/webhook-endpoints', query: params as Query });
  }

  retrieve(id: string): Promise<WebhookEndpoint> {
    return this.call({ method: 'GET', path: `/v1/webhook-endpoints/${segment(id)}` });
  }

  update(id: string, params: UpdateWebhookEndpointParams): Promise<WebhookEndpoint> {
    return this.call({ method: 'PATCH', path: `/v1/webhook-endpoints/${segment(id)}`, body: params });
  }

  delete(id: string): Promise<Deleted> {
    return this.call({ method: 'DELETE', path: `/v1/webhook-endpoints/${segment(id)}` });
  }

  /** A new secret; the previous one keeps signing for a while (previous_secret_expires_at). */
  rotateSecret(id: string): Promise<WebhookEndpointWithSecret> {
    return this.call({ method: 'POST', path: `/v1/webhook-endpoints/${segment(id)}/rotate-secret` });
  }

  listDeliveries(id: string, params: ListWebhookDeliveriesParams = {}): Promise<List<WebhookDelivery>> {
    return this.call({ method: 'GET', path: `/v1/webhook-endpoints/${segment(id)}/deliveries`, query: params as Query });
  }
}

/** /v1/webhook-deliveries. */
export class WebhookDeliveriesResource extends Resource {
  retrieve(id: string): Promise<WebhookDelivery> {
    return this.call({ method: 'GET', path: `/v1/webhook-deliveries/${segment(id)}` });
  }

  /** Sends the delivery again now. */
  resend(id: string): Promise<WebhookDelivery> {
    return this.call({ method: 'POST', path: `/v1/webhook-deliveries/${segment(id)}/resend` });
  }
}

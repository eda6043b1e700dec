import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Deleted, PageParams } from '../types/common.types';
import type {
  CreateWebhookEndpointParams,
  ListWebhookDeliveriesParams,
  UpdateWebhookEndpointParams,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../types/webhook-endpoint.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/webhook-endpoints: where events are delivered, signed with the endpoint's secret. */
export class WebhookEndpointsResource extends Resource {
  /** The answer carries `secret` (shown only here and on rotateSecret): keep it to verify deliveries. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpointWithSecret>> {
    return this.call({ method: 'POST', path: '/v1/webhook-endpoints', body: params }, options);
  }

  list(params: PageParams = {}, options?: RequestOptions): ListPromise<WebhookEndpoint> {
    return this.pageList<WebhookEndpoint>('/v1/webhook-endpoints', params, options);
  }

  /** Every endpoint, fetching pages as you iterate. */
  listAll(params: PageParams = {}, options?: RequestOptions): AsyncGenerator<WebhookEndpoint> {
    return this.paginate<WebhookEndpoint>('/v1/webhook-endpoints', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpoint>> {
    return this.call({ method: 'GET', path: `/v1/webhook-endpoints/${segment(id)}` }, options);
  }

  update(id: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpoint>> {
    return this.call({ method: 'PATCH', path: `/v1/webhook-endpoints/${segment(id)}`, body: params }, options);
  }

  delete(id: string, options?: RequestOptions): Promise<WithLastResponse<Deleted>> {
    return this.call({ method: 'DELETE', path: `/v1/webhook-endpoints/${segment(id)}` }, options);
  }

  /** A new secret; the previous one keeps signing for a while (previous_secret_expires_at). */
  rotateSecret(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpointWithSecret>> {
    return this.call({ method: 'POST', path: `/v1/webhook-endpoints/${segment(id)}/rotate-secret` }, options);
  }

  listDeliveries(id: string, params: ListWebhookDeliveriesParams = {}, options?: RequestOptions): ListPromise<WebhookDelivery> {
    return this.pageList<WebhookDelivery>(`/v1/webhook-endpoints/${segment(id)}/deliveries`, params, options);
  }

  /** Every delivery of the endpoint matching the filters, fetching pages as you iterate. */
  listDeliveriesAll(id: string, params: ListWebhookDeliveriesParams = {}, options?: RequestOptions): AsyncGenerator<WebhookDelivery> {
    return this.paginate<WebhookDelivery>(`/v1/webhook-endpoints/${segment(id)}/deliveries`, params, options);
  }
}

/** /v1/webhook-deliveries. */
export class WebhookDeliveriesResource extends Resource {
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookDelivery>> {
    return this.call({ method: 'GET', path: `/v1/webhook-deliveries/${segment(id)}` }, options);
  }

  /** Sends the delivery again now. */
  resend(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookDelivery>> {
    return this.call({ method: 'POST', path: `/v1/webhook-deliveries/${segment(id)}/resend` }, options);
  }
}

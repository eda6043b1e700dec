import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { List } from '../types/common.types';
import type {
  CreateIntegrationParams,
  DeletedIntegration,
  Integration,
  IntegrationDelivery,
  IntegrationKind,
  ListIntegrationDeliveriesParams,
  UpdateIntegrationParams,
} from '../types/integration.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/integration-kinds: the ad tools, their credential fields and options, and what is sent. Full key. */
export class IntegrationKindsResource extends Resource {
  list(options?: RequestOptions): Promise<WithLastResponse<List<IntegrationKind>>> {
    return this.call({ method: 'GET', path: '/v1/integration-kinds' }, options);
  }
}

/** /v1/integrations: sales sent to ad tools (credentials are never returned, only their last 4). Full key. */
export class IntegrationsResource extends Resource {
  create(params: CreateIntegrationParams, options?: RequestOptions): Promise<WithLastResponse<Integration>> {
    return this.call({ method: 'POST', path: '/v1/integrations', body: params }, options);
  }

  /** Every integration, in one page. */
  list(options?: RequestOptions): Promise<WithLastResponse<List<Integration>>> {
    return this.call({ method: 'GET', path: '/v1/integrations' }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Integration>> {
    return this.call({ method: 'GET', path: `/v1/integrations/${segment(id)}` }, options);
  }

  update(id: string, params: UpdateIntegrationParams, options?: RequestOptions): Promise<WithLastResponse<Integration>> {
    return this.call({ method: 'PATCH', path: `/v1/integrations/${segment(id)}`, body: params }, options);
  }

  /** Deletes it and its credentials; pending sends are dropped. */
  delete(id: string, options?: RequestOptions): Promise<WithLastResponse<DeletedIntegration>> {
    return this.call({ method: 'DELETE', path: `/v1/integrations/${segment(id)}` }, options);
  }

  /** The last sends, newest first, with the tool's answer. */
  listDeliveries(id: string, params: ListIntegrationDeliveriesParams = {}, options?: RequestOptions): ListPromise<IntegrationDelivery> {
    return this.pageList<IntegrationDelivery>(`/v1/integrations/${segment(id)}/deliveries`, params, options);
  }

  /** Every send, page after page. */
  listDeliveriesAll(id: string, params: ListIntegrationDeliveriesParams = {}, options?: RequestOptions): AsyncGenerator<IntegrationDelivery> {
    return this.paginate<IntegrationDelivery>(`/v1/integrations/${segment(id)}/deliveries`, params, options);
  }

  /** Sends the last approved sale now, as a test (no retries), and answers the send with the tool's answer. */
  test(id: string, options?: RequestOptions): Promise<WithLastResponse<IntegrationDelivery>> {
    return this.call({ method: 'POST', path: `/v1/integrations/${segment(id)}/test` }, options);
  }
}

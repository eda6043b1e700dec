import type { Query } from '../http/transport';
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
import { Resource, segment } from './resource';

/** /v1/integration-kinds: the ad tools, their credential fields and options, and what is sent. Full key. */
export class IntegrationKindsResource extends Resource {
  list(): Promise<List<IntegrationKind>> {
    return this.call({ method: 'GET', path: '/v1/integration-kinds' });
  }
}

/** /v1/integrations: sales sent to ad tools (credentials are never returned, only their last 4). Full key. */
export class IntegrationsResource extends Resource {
  create(params: CreateIntegrationParams): Promise<Integration> {
    return this.call({ method: 'POST', path: '/v1/integrations', body: params });
  }

  /** Every integration, in one page. */
  list(): Promise<List<Integration>> {
    return this.call({ method: 'GET', path: '/v1/integrations' });
  }

  retrieve(id: string): Promise<Integration> {
    return this.call({ method: 'GET', path: `/v1/integrations/${segment(id)}` });
  }

  update(id: string, params: UpdateIntegrationParams): Promise<Integration> {
    return this.call({ method: 'PATCH', path: `/v1/integrations/${segment(id)}`, body: params });
  }

  /** Deletes it and its credentials; pending sends are dropped. */
  delete(id: string): Promise<DeletedIntegration> {
    return this.call({ method: 'DELETE', path: `/v1/integrations/${segment(id)}` });
  }

  /** The last sends, newest first, with the tool's answer. */
  listDeliveries(id: string, params: ListIntegrationDeliveriesParams = {}): Promise<List<IntegrationDelivery>> {
    return this.call({ method: 'GET', path: `/v1/integrations/${segment(id)}/deliveries`, query: params as Query });
  }

  /** Every send, page after page. */
  listDeliveriesAll(id: string, params: ListIntegrationDeliveriesParams = {}): AsyncGenerator<IntegrationDelivery> {
    return this.paginate<IntegrationDelivery, ListIntegrationDeliveriesParams>(`/v1/integrations/${segment(id)}/deliveries`, params);
  }

  /** Sends the last approved sale now, as a test (no retries), and answers the send with the tool's answer. */
  test(id: string): Promise<IntegrationDelivery> {
    return this.call({ method: 'POST', path: `/v1/integrations/${segment(id)}/test` });
  }
}

import type { Query } from '../http/transport';
import type { List } from '../types/common.types';
import type { CustomerRecord, ListCustomersParams } from '../types/customer.types';
import { Resource, segment } from './resource';

/** /v1/customers (full keys). */
export class CustomersResource extends Resource {
  list(params: ListCustomersParams = {}): Promise<List<CustomerRecord>> {
    return this.call({ method: 'GET', path: '/v1/customers', query: params as Query });
  }

  retrieve(id: string): Promise<CustomerRecord> {
    return this.call({ method: 'GET', path: `/v1/customers/${segment(id)}` });
  }
}

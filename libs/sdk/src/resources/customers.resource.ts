import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { CustomerRecord, ListCustomersParams } from '../types/customer.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/customers (full keys). */
export class CustomersResource extends Resource {
  list(params: ListCustomersParams = {}, options?: RequestOptions): ListPromise<CustomerRecord> {
    return this.pageList<CustomerRecord>('/v1/customers', params, options);
  }

  /** Every customer matching the filters, fetching pages as you iterate. */
  listAll(params: ListCustomersParams = {}, options?: RequestOptions): AsyncGenerator<CustomerRecord> {
    return this.paginate<CustomerRecord>('/v1/customers', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<CustomerRecord>> {
    return this.call({ method: 'GET', path: `/v1/customers/${segment(id)}` }, options);
  }
}

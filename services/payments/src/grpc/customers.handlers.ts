import type { customers as customersContract } from '@orquestra/contracts';
import type { Handlers } from '@orquestra/platform';
import { toProtoCustomer, type CustomerStore } from '../db/customer.store';
import { scopeOf } from './payments.handlers';

export function customersHandlers(customers: CustomerStore): Handlers<typeof customersContract.CustomersServiceService> {
  return {
    async listCustomers(request) {
      const { data, hasMore } = await customers.list(scopeOf(request.caller), {
        document: request.document,
        email: request.email,
        limit: request.limit > 0 ? Math.min(request.limit, 100) : 10,
        startingAfter: request.starting_after,
      });
      return { data: data.map(toProtoCustomer), has_more: hasMore };
    },
    async getCustomer(request) {
      return { customer: toProtoCustomer(await customers.get(request.customer_id, scopeOf(request.caller))) };
    },
  };
}

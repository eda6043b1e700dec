import type { customers as customersContract } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { toPaymentCustomerDoc } from '../db/payment-customer.mapper';
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
    async upsertCustomer(request) {
      const scope = scopeOf(request.caller);
      const customer = request.customer;
      if (!customer?.name?.trim()) throw new AppError('parameter_missing', { param: 'customer.name', message: 'Informe o nome do cliente (customer.name).' });
      const document = (customer.document ?? '').replace(/\D/g, '');
      if (document.length !== 11 && document.length !== 14) {
        throw new AppError('parameter_invalid', { param: 'customer.document', message: 'Informe o CPF (11 dígitos) ou CNPJ (14 dígitos) do cliente em customer.document.' });
      }
      const upserted = await customers.upsert({ merchant_id: scope.merchantId, mode: scope.mode, customer: toPaymentCustomerDoc(customer) });
      if (!upserted) throw new AppError('internal');
      return { customer: toProtoCustomer(await customers.get(upserted.id, scope)), created: upserted.created };
    },
  };
}

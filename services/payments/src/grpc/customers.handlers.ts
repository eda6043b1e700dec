import type { customers as customersContract } from '@orquestra/contracts';
import { AppError, parseTaxId, type Handlers } from '@orquestra/platform';
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
      if (!parseTaxId(customer.document)) {
        throw new AppError('parameter_invalid', {
          param: 'customer.document',
          message: 'CPF ou CNPJ inválido em customer.document: confira os dígitos verificadores (11 dígitos de CPF ou 14 caracteres de CNPJ, inclusive o alfanumérico).',
        });
      }
      const upserted = await customers.upsert({ merchant_id: scope.merchantId, mode: scope.mode, customer: toPaymentCustomerDoc(customer) });
      if (!upserted) throw new AppError('internal');
      return { customer: toProtoCustomer(await customers.get(upserted.id, scope)), created: upserted.created };
    },
  };
}

import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CustomerListSchema, CustomerRecordSchema, ListCustomersQuerySchema } from '../schemas/customer-record.schema';
import { CustomerIdParamsSchema } from '../schemas/path-params.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const TAG = ['Customers'];

/** GET /v1/customers and GET /v1/customers/{id} (full keys only). */
export function registerCustomerPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/customers',
    operationId: 'listCustomers',
    tags: TAG,
    summary: 'Lista os clientes do modo da chave (um por CPF/CNPJ), mais novos primeiro',
    security: BEARER,
    request: { query: ListCustomersQuerySchema },
    responses: { 200: json(CustomerListSchema, 'Os clientes.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/customers/{id}',
    operationId: 'getCustomer',
    tags: TAG,
    summary: 'Consulta um cliente',
    security: BEARER,
    request: { params: CustomerIdParamsSchema },
    responses: { 200: json(CustomerRecordSchema, 'O cliente.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });
}

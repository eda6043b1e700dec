import { modeName, type customers } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { ListCustomersQuerySchema } from '../schemas/customer-record.schema';
import { CustomerIdPathSchema } from '../schemas/path-params.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

const orNull = (value: string) => (value ? value : null);

export function toCustomerJson(customer: customers.CustomerRecord | undefined) {
  if (!customer) throw new AppError('internal', { message: 'the customers service answered without a customer' });
  return {
    id: customer.id,
    object: 'customer' as const,
    name: customer.name,
    email: orNull(customer.email),
    document: customer.document,
    phone: orNull(customer.phone),
    mode: modeName(customer.mode),
    created_at: customer.created_at,
    updated_at: customer.updated_at,
  };
}

/**
 * GET /v1/customers (filters document, email) and GET /v1/customers/{id}: the merchant's buyers,
 * one record per CPF/CNPJ and mode, created by the payments that name them. Full keys only
 * (restricted keys cannot list customers, spec rule 4).
 */
export function customersRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  const guard = [authenticate, requireFullKey()];

  router.get('/customers', ...guard, async (req, res) => {
    const query = parseOrThrow(ListCustomersQuerySchema, req.query, 'query');
    const response = await clients.customers.listCustomers(
      { caller: callerOf(res), document: query.document ?? '', email: query.email ?? '', limit: query.limit, starting_after: query.starting_after ?? '' },
      rpcOptions(res),
    );
    res.json({ object: 'list', data: response.data.map((c) => toCustomerJson(c)), has_more: response.has_more });
  });

  router.get('/customers/:id', ...guard, async (req, res) => {
    const id = pathIdOf(req, CustomerIdPathSchema);
    const { customer } = await aboutPathId(() => clients.customers.getCustomer({ caller: callerOf(res), customer_id: id }, rpcOptions(res)));
    res.json(toCustomerJson(customer));
  });

  return router;
}

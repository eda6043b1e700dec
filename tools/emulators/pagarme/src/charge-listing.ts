/**
 * Reconciliation support (issue 18): `GET /core/v5/orders` by creation period with Pagar.me's page
 * pagination, and the control routes that make a charge "in the dashboard" (no code of the
 * integrator's) or change a charge's status behind the integrator's back (no webhook).
 *
 * Pagar.me's list (docs.pagar.me "Listar pedidos"): query `code`, `status`, `customer_id`,
 * `created_since`, `created_until`, `page` (from 1) and `size` (at most 30), answer
 * `{data:[order…], paging:{total, previous?, next?}}` with `previous`/`next` as URLs. Newest first.
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import { sendControlError as fail, type Logger } from '../../kit';
import type { EmulatorState, StoredOrder } from './emulator-state';
import { pagarmeErrors } from './pagarme-errors';

/** Pagar.me answers at most 30 orders a page. */
export const MAX_PAGE_SIZE = 30;

function positiveInt(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback;
  return Math.min(Math.max(n, 1), max);
}

/** An ISO date or date-time query value; absent → undefined; malformed → 422 on that field. */
function dateParam(req: Request, name: string): Date | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) throw pagarmeErrors.invalid({ [name]: [`The field ${name} must be a valid date.`] }, req.query);
  return new Date(at);
}

export interface OrderPage {
  data: StoredOrder[];
  total: number;
  page: number;
  size: number;
}

/**
 * One page of the account's orders matching the query: `created_since` and `created_until` both
 * inclusive (Pagar.me does not say; the adapter filters its own bound again), newest first.
 */
export function listOrderPage(state: EmulatorState, accountId: string, req: Request): OrderPage {
  const page = positiveInt(req.query['page'], 1, 1_000_000);
  const size = positiveInt(req.query['size'], 10, MAX_PAGE_SIZE);
  const code = typeof req.query['code'] === 'string' ? req.query['code'] : undefined;
  const status = typeof req.query['status'] === 'string' ? req.query['status'] : undefined;
  const since = dateParam(req, 'created_since');
  const until = dateParam(req, 'created_until');
  const all = state
    .listOrders(accountId)
    .filter((o) => code === undefined || o.code === code)
    .filter((o) => status === undefined || o.status === status)
    .filter((o) => since === undefined || o.createdAt.getTime() >= since.getTime())
    .filter((o) => until === undefined || o.createdAt.getTime() <= until.getTime())
    // A dashboard order may be back-dated: the list is by creation time, not by insertion.
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return { data: all.slice((page - 1) * size, page * size), total: all.length, page, size };
}

/** `paging` as Pagar.me writes it: the total and the URLs of the neighbour pages, when they exist. */
export function pagingOf(req: Request, listed: OrderPage) {
  const urlFor = (page: number) => {
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
    url.searchParams.set('page', String(page));
    url.searchParams.set('size', String(listed.size));
    return url.toString();
  };
  return {
    total: listed.total,
    ...(listed.page > 1 ? { previous: urlFor(listed.page - 1) } : {}),
    ...(listed.page * listed.size < listed.total ? { next: urlFor(listed.page + 1) } : {}),
  };
}

// --- control: dashboard charges and statuses changed behind the integrator's back -------------

const dashboardChargeSchema = z
  .object({
    account: z.string().min(1),
    amount: z.number().int().min(1).max(100_000_000),
    method: z.enum(['pix', 'boleto', 'credit_card', 'card']).default('pix'),
    status: z.enum(['pending', 'paid', 'canceled', 'failed', 'refunded']).default('paid'),
    created_at: z.string().datetime({ offset: true }).optional(),
  })
  .strict();

const statusSchema = z.object({ status: z.enum(['pending', 'paid', 'canceled', 'failed', 'refunded']) }).strict();

/** Creates an order as the API would (the body the dashboard's form produces), for `accountId`. */
export type DashboardOrderFactory = (accountId: string, body: unknown) => StoredOrder;

/** What the dashboard's form sends: a customer of its own, no `code` (Pagar.me makes one), no metadata. */
function dashboardOrderBody(amount: number, method: 'pix' | 'boleto' | 'credit_card') {
  const customer = {
    name: 'Cliente do Painel',
    email: 'cliente.painel@example.com',
    document: '11144477735',
    type: 'individual',
    phones: { mobile_phone: { country_code: '55', area_code: '11', number: '988887777' } },
    ...(method === 'boleto' ? { address: { line_1: '100, Avenida Paulista, Bela Vista', zip_code: '01310100', city: 'São Paulo', state: 'SP', country: 'BR' } } : {}),
  };
  const payment =
    method === 'pix'
      ? { payment_method: 'pix', pix: { expires_in: 86_400 } }
      : method === 'boleto'
        ? { payment_method: 'boleto', boleto: {} }
        : { payment_method: 'credit_card', credit_card: { installments: 1, card: { number: '4000000000000010', holder_name: 'CLIENTE PAINEL', exp_month: 12, exp_year: 2040, cvv: '123' } } };
  return { items: [{ amount, description: 'Venda pelo painel', quantity: 1 }], customer, payments: [payment] };
}

/** Moves the order's creation time (charge and transaction too): a dashboard sale of an earlier day. */
function backdate(order: StoredOrder, at: Date): void {
  order.createdAt = at;
  order.charge.createdAt = at;
  order.charge.transaction.createdAt = at;
}

/**
 * Sets the charge's status the way Pagar.me would have got there, without any webhook: pending →
 * paid (settled, balance credited) | canceled | failed; paid → refunded (all of it returned, the
 * charge `canceled` with `canceled_amount`, as a DELETE does) | canceled (the same); anything else
 * → an error message.
 */
export function setStatusQuietly(state: EmulatorState, order: StoredOrder, status: z.infer<typeof statusSchema>['status']): string | undefined {
  const { charge } = order;
  const from = charge.status;
  if (status === from) return undefined;
  if (from === 'pending' && status === 'paid') {
    state.settle(order);
    return undefined;
  }
  if (from === 'pending' && status === 'canceled') {
    state.cancel(order);
    return undefined;
  }
  if (from === 'pending' && status === 'failed') {
    const at = state.now();
    charge.status = 'failed';
    charge.updatedAt = at;
    charge.transaction.status = 'failed';
    charge.transaction.updatedAt = at;
    order.status = 'failed';
    order.updatedAt = at;
    return undefined;
  }
  if ((from === 'paid' || from === 'overpaid') && (status === 'refunded' || status === 'canceled')) {
    state.refund(order, { bankAccount: true });
    return undefined;
  }
  return `a ${from} charge cannot become ${status} here`;
}

export function dashboardControlRoutes(state: EmulatorState, createOrder: DashboardOrderFactory, logger: Logger): Router {
  const routes = Router();

  routes.post('/__control/dashboard-charges', (req, res) => {
    const parsed = dashboardChargeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const account = state.resolveAccount(parsed.data.account);
    if (!account) return fail(res, 404, 'account_not_found', 'no sandbox account with this key or id');
    const method = parsed.data.method === 'card' ? 'credit_card' : parsed.data.method;
    const order = createOrder(account.id, dashboardOrderBody(parsed.data.amount, method));
    if (parsed.data.created_at) backdate(order, new Date(Date.parse(parsed.data.created_at)));
    // A card order is captured at creation (paid); the asked status is reached from there.
    const problem = setStatusQuietly(state, order, parsed.data.status);
    if (problem) return fail(res, 409, 'status_refused', problem);
    logger.info({ account: account.id, charge: order.charge.id, status: order.charge.status }, 'dashboard charge created');
    res.status(201).json({ order_id: order.id, charge_id: order.charge.id, code: order.code, amount: order.amount, payment_method: method, status: order.charge.status, created_at: order.createdAt.toISOString() });
  });

  routes.post('/__control/charges/:id/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const order = state.findAnywhere(req.params['id'] ?? '');
    if (!order) return fail(res, 404, 'charge_not_found', `no charge or order ${req.params['id'] ?? ''}`);
    const problem = setStatusQuietly(state, order, parsed.data.status);
    if (problem) return fail(res, 409, 'status_refused', problem);
    logger.info({ account: order.accountId, charge: order.charge.id, status: order.charge.status }, 'charge status set behind the integrator');
    res.status(200).json({ charge_id: order.charge.id, order_id: order.id, status: order.charge.status, canceled_amount: order.charge.canceledAmount ?? 0, webhooks_scheduled: 0 });
  });

  return routes;
}

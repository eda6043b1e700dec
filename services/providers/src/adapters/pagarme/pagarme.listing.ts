/**
 * Pagar.me's own record of charges over a period (provider-charge-listing.ts, issue 18):
 * `GET /core/v5/orders?created_since&created_until&page&size` (docs.pagar.me "Listar pedidos"),
 * answered `{data:[order…], paging:{total, previous?, next?}}`, at most 30 a page, newest first.
 *
 * Each order carries its one charge (we make one payment per order). What the list tells: the
 * charge id, status, amount, paid and canceled amounts, method, creation time and the order's
 * `code` (our payment id, set at creation). What it cannot: the fee (Pagar.me v5 shows no
 * processing fee on an order or charge), so `fee` is null.
 *
 * The cursor is the next page number, JSON-encoded. Pages are by number over a fixed creation
 * period, so an order created meanwhile inside the period (an open period) shifts the later pages
 * by one: a charge may then be listed twice, never skipped (the caller dedupes by id).
 */
import { assertCents } from '@orquestra/platform';
import { ProviderError, type ChargeMethod } from '../provider-adapter';
import type { ChargePage, ChargePeriod, ListedCharge } from '../provider-charge-listing';
import type { HttpAnswer } from '../http/provider-http';
import { providerErrorFor } from './pagarme.errors';
import { chargeOfOrder, mapChargeStatus, type PagarmeCharge, type PagarmeOrder } from './pagarme.transformers';

/** Pagar.me's largest page. */
export const PAGARME_MAX_LIST_SIZE = 30;

export interface PagarmeOrderList {
  data?: (PagarmeOrder & { created_at?: string })[];
  paging?: { total?: number; previous?: string | null; next?: string | null };
}

type ListedPagarmeCharge = PagarmeCharge & { created_at?: string };

function methodOf(paymentMethod: string | undefined): ChargeMethod | null {
  if (paymentMethod === 'pix' || paymentMethod === 'boleto') return paymentMethod;
  if (paymentMethod === 'credit_card') return 'card';
  return null;
}

/**
 * One order's charge as a ListedCharge. Refunded = `canceled_amount` of a charge that was paid (a
 * pending charge canceled has `canceled_amount` too, but nothing was refunded).
 */
export function listedChargeOfOrder(order: PagarmeOrder & { created_at?: string }): ListedCharge | undefined {
  const charge = chargeOfOrder(order) as ListedPagarmeCharge | undefined;
  if (!charge) return undefined;
  assertCents(charge.amount, 'amount');
  const refunded = charge.paid_at ? (charge.canceled_amount ?? 0) : 0;
  assertCents(refunded, 'canceled_amount');
  const created = Date.parse(charge.created_at ?? order.created_at ?? '');
  return {
    providerPaymentId: charge.id,
    status: mapChargeStatus(charge).status,
    amount: charge.amount,
    amountRefunded: refunded,
    fee: null,
    method: methodOf(charge.payment_method),
    createdAt: new Date(Number.isFinite(created) ? created : 0),
    // The order's code is our payment id (pagarme.transformers.ts buildOrderRequest); a dashboard
    // order has one Pagar.me made up, which matches none of ours.
    reference: order.code ?? null,
  };
}

function pageOf(cursor: string | null): number {
  if (cursor === null) return 1;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    parsed = undefined;
  }
  const page = (parsed as { page?: unknown } | undefined)?.page;
  if (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 1) {
    throw new ProviderError('rejected', 'provider_rejected', 'pagarme list charges: cursor is not one this adapter gave');
  }
  return page;
}

export type PagarmeGet = (path: string) => Promise<HttpAnswer>;

export async function listPagarmeCharges(get: PagarmeGet, period: ChargePeriod, cursor: string | null, pageSize = PAGARME_MAX_LIST_SIZE): Promise<ChargePage> {
  const page = pageOf(cursor);
  const size = Math.min(Math.max(1, Math.floor(pageSize)), PAGARME_MAX_LIST_SIZE);
  // created_until is inclusive at Pagar.me as far as one can tell: the end is asked for and the
  // charges at or after it (the period is [from, to)) are dropped here.
  const query = new URLSearchParams({ created_since: period.from.toISOString(), created_until: period.to.toISOString(), page: String(page), size: String(size) });
  const answer = await get(`/orders?${query.toString()}`);
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list orders');
  const body = answer.body as PagarmeOrderList;
  const orders = body.data ?? [];
  const charges = orders
    .map(listedChargeOfOrder)
    .filter((c): c is ListedCharge => c !== undefined && c.createdAt.getTime() >= period.from.getTime() && c.createdAt.getTime() < period.to.getTime());
  const more = body.paging?.next ? true : typeof body.paging?.total === 'number' ? page * size < body.paging.total : orders.length === size;
  return { charges, next: more && orders.length > 0 ? JSON.stringify({ page: page + 1 }) : null };
}

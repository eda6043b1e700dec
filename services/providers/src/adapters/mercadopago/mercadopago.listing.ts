/**
 * Mercado Pago's own records for reconciliation (issue 18): `GET /v1/payments/search` with
 * `range=date_created`, `begin_date`/`end_date`, `sort=date_created&criteria=asc` and
 * `offset`/`limit`, each payment mapped to a ListedCharge through the adapter's status map. Pure:
 * the adapter makes the call.
 *
 * The search reports the fee (`fee_details`, the collector's part: null while none is reported,
 * e.g. before approval), refunds (`transaction_amount_refunded`, else the approved `refunds[]`) and
 * our reference (`external_reference` = our payment id, set at creation). It covers the last twelve
 * months only (Mercado Pago's documented window).
 */
import type { ChargeMethod } from '../provider-adapter';
import type { ChargePage, ChargePeriod, ListedCharge } from '../provider-charge-listing';
import type { MercadoPagoRefund } from './mercadopago.refunds';
import { collectorFeeCents, formatMercadoPagoDate, mapPaymentStatus, reaisToCents, type MercadoPagoAmount, type MercadoPagoPayment } from './mercadopago.transformers';

/** A payment as the search answers it (the GET fields, plus what only reconciliation reads). */
export interface MercadoPagoSearchedPayment extends MercadoPagoPayment {
  payment_type_id?: string;
  transaction_amount_refunded?: MercadoPagoAmount | null;
}

export interface MercadoPagoSearchAnswer {
  paging?: { total?: number; limit?: number; offset?: number };
  results?: MercadoPagoSearchedPayment[];
}

/** Mercado Pago's default page is 30; 1000 is the most the emulator takes (the real cap is unconfirmed). */
export const MERCADOPAGO_LIST_PAGE_SIZE = 100;
export const MERCADOPAGO_LIST_PAGE_SIZE_MAX = 1000;

interface MercadoPagoListCursor {
  offset: number;
}

export function decodeMercadoPagoListCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  const parsed = JSON.parse(cursor) as Partial<MercadoPagoListCursor>;
  if (typeof parsed.offset !== 'number' || !Number.isSafeInteger(parsed.offset) || parsed.offset < 0) throw new RangeError(`not a Mercado Pago list cursor: ${cursor}`);
  return parsed.offset;
}

/** One page's path; `end_date` is inclusive, so it is one millisecond before `to`. */
export function mercadoPagoSearchPath(period: ChargePeriod, offset: number, limit: number): string {
  const query = new URLSearchParams({
    sort: 'date_created',
    criteria: 'asc',
    range: 'date_created',
    begin_date: formatMercadoPagoDate(period.from),
    end_date: formatMercadoPagoDate(new Date(period.to.getTime() - 1)),
    offset: String(offset),
    limit: String(limit),
  });
  return `/v1/payments/search?${query.toString()}`;
}

function methodOf(payment: MercadoPagoSearchedPayment): ChargeMethod | null {
  if (payment.payment_method_id === 'pix' || payment.payment_type_id === 'bank_transfer') return 'pix';
  if (payment.payment_method_id === 'bolbradesco' || payment.payment_type_id === 'ticket') return 'boleto';
  if (payment.payment_type_id === 'credit_card' || payment.payment_type_id === 'debit_card') return 'card';
  return null;
}

function refundedCents(payment: MercadoPagoSearchedPayment): number {
  if (payment.transaction_amount_refunded !== undefined && payment.transaction_amount_refunded !== null) return reaisToCents(payment.transaction_amount_refunded);
  return (payment.refunds ?? []).filter((r: MercadoPagoRefund) => r.status === 'approved').reduce((sum, r) => sum + reaisToCents(r.amount), 0);
}

export function paymentToListedCharge(payment: MercadoPagoSearchedPayment): ListedCharge {
  return {
    providerPaymentId: String(payment.id),
    status: mapPaymentStatus(payment.status, payment.status_detail).status,
    amount: reaisToCents(payment.transaction_amount),
    amountRefunded: refundedCents(payment),
    fee: collectorFeeCents(payment.fee_details) ?? null,
    method: methodOf(payment),
    createdAt: new Date(payment.date_created ?? NaN),
    reference: payment.external_reference || null,
  };
}

/** One answer → the page; anything outside [from, to) is dropped (the API's bounds are inclusive). */
export function mercadoPagoSearchPage(answer: MercadoPagoSearchAnswer, period: ChargePeriod, offset: number, limit: number): ChargePage {
  const results = answer.results ?? [];
  const charges = results.map(paymentToListedCharge).filter((c) => c.createdAt >= period.from && c.createdAt < period.to);
  const total = answer.paging?.total;
  const more = typeof total === 'number' ? offset + results.length < total && results.length > 0 : results.length >= limit;
  return { charges, next: more ? JSON.stringify({ offset: offset + results.length } satisfies MercadoPagoListCursor) : null };
}

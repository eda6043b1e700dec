/**
 * Asaas's own records for reconciliation (issue 18): `GET /v3/payments` with `dateCreated[ge]` and
 * `dateCreated[le]`, paged by `offset`/`limit` (at most 100) until `hasMore` is false, each charge
 * mapped to a ListedCharge through the adapter's status map. Pure: the adapter makes the call.
 *
 * What the list reports: value, status, billing type, `netValue` (the fee is `value − netValue`,
 * given here only once the charge is paid: before that it is Asaas's estimate), `refunds[]` (DONE
 * ones count) and `externalReference` (what the adapter set at creation: our idempotency key,
 * `<payment id>:<account id>…`, or `orq:<sha256>` of a longer key; asaas.transformers.ts).
 * What it cannot: the creation time (`dateCreated` is a São Paulo day, so `createdAt` is that day's
 * 00:00 in São Paulo and the period is widened to whole São Paulo days), removed charges (Asaas
 * leaves `deleted` ones out of the list: a charge canceled by us is absent, not `canceled`), and a
 * stable order while charges are created (newest first: a charge created during a run shifts the
 * offsets by one, so a charge may be listed twice; the pages overlap by LIST_PAGE_OVERLAP so a
 * deleted charge does not make the next one skipped).
 */
import type { ChargeMethod } from '../provider-adapter';
import { nextListOffset, type ChargePage, type ChargePeriod, type ListedCharge } from '../provider-charge-listing';
import type { AsaasRefund } from './asaas.refunds';
import { feeCents, mapPaymentStatus, parseSaoPauloTime, reaisToCents, saoPauloDate, type AsaasList, type AsaasPayment } from './asaas.transformers';

/** A charge as the list answers it, with the refunds reconciliation reads. */
export interface AsaasListedPayment extends AsaasPayment {
  dateCreated: string;
  refunds?: AsaasRefund[] | null;
}

export type AsaasPaymentList = AsaasList<AsaasListedPayment> & { limit?: number; offset?: number };

/** Asaas's maximum page. */
export const ASAAS_LIST_PAGE_SIZE_MAX = 100;

interface AsaasListCursor {
  offset: number;
}

export function decodeAsaasListCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  const parsed = JSON.parse(cursor) as Partial<AsaasListCursor>;
  if (typeof parsed.offset !== 'number' || !Number.isSafeInteger(parsed.offset) || parsed.offset < 0) throw new RangeError(`not an Asaas list cursor: ${cursor}`);
  return parsed.offset;
}

/** The São Paulo days the period touches: [day of `from`, day of `to` − 1 ms]. */
export function asaasPeriodDays(period: ChargePeriod): { first: string; last: string } {
  return { first: saoPauloDate(period.from), last: saoPauloDate(new Date(period.to.getTime() - 1)) };
}

export function asaasPaymentListPath(period: ChargePeriod, offset: number, limit: number): string {
  const { first, last } = asaasPeriodDays(period);
  const query = new URLSearchParams({ 'dateCreated[ge]': first, 'dateCreated[le]': last, offset: String(offset), limit: String(limit) });
  return `/payments?${query.toString()}`;
}

function methodOf(billingType: string): ChargeMethod | null {
  if (billingType === 'PIX') return 'pix';
  if (billingType === 'BOLETO') return 'boleto';
  if (billingType === 'CREDIT_CARD') return 'card';
  // UNDEFINED: the buyer chooses on the invoice page; unknown until paid.
  return null;
}

function refundedCents(payment: AsaasListedPayment, amount: number): number {
  const refunds = payment.refunds ?? [];
  if (refunds.length === 0) return payment.status === 'REFUNDED' ? amount : 0;
  return refunds.filter((r) => r.status === 'DONE').reduce((sum, r) => sum + reaisToCents(r.value), 0);
}

export function asaasPaymentToListedCharge(payment: AsaasListedPayment): ListedCharge {
  const status = payment.deleted ? 'canceled' : mapPaymentStatus(payment.status);
  const amount = reaisToCents(payment.value);
  return {
    providerPaymentId: payment.id,
    status,
    amount,
    amountRefunded: refundedCents(payment, amount),
    fee: status === 'paid' ? (feeCents(payment) ?? null) : null,
    method: methodOf(payment.billingType),
    createdAt: parseSaoPauloTime(payment.dateCreated) ?? new Date(NaN),
    reference: payment.externalReference || null,
  };
}

/** One answer → the page; charges of other days (should the API send any) are dropped. */
export function asaasPaymentListPage(list: AsaasPaymentList, period: ChargePeriod, offset: number): ChargePage {
  const { first, last } = asaasPeriodDays(period);
  const data = list.data ?? [];
  const charges = data.filter((p) => p.dateCreated.slice(0, 10) >= first && p.dateCreated.slice(0, 10) <= last).map(asaasPaymentToListedCharge);
  return { charges, next: list.hasMore && data.length > 0 ? JSON.stringify({ offset: nextListOffset(offset, data.length) } satisfies AsaasListCursor) : null };
}

/**
 * Woovi's own record of charges over a period (provider-charge-listing.ts, issue 18):
 * `GET /api/v1/charge?start&end&skip&limit` (start/end RFC 3339 on `createdAt`), answered
 * `{pageInfo:{skip, limit, totalCount, hasPreviousPage, hasNextPage}, charges:[charge…]}`, at most
 * 100 a page.
 *
 * What the list tells: the correlationID (our providerPaymentId, derived from our idempotency key
 * at creation, so also the reference), status, `value` and `fee` in cents, `createdAt`. What it
 * does not: refunds, which live beside the charge (`GET /api/v1/charge/{id}/refund`): they are read
 * for each COMPLETED charge of the page (only CONFIRMED refunds count). The fee is reported only
 * for a COMPLETED charge (before payment Woovi has charged nothing). A charge removed by DELETE
 * (a canceled pending one) is no longer listed at all. Pix only.
 *
 * The cursor is the next `skip`, JSON-encoded. A charge created meanwhile inside an open period
 * shifts the later pages: a charge may be listed twice (the caller dedupes by id); the pages
 * overlap by LIST_PAGE_OVERLAP, so a charge deleted meanwhile does not make the next one skipped.
 */
import { assertCents } from '@orquestra/platform';
import { ProviderError } from '../provider-adapter';
import { nextListOffset, type ChargePage, type ChargePeriod, type ListedCharge } from '../provider-charge-listing';
import { wooviChargeRefunds } from './woovi.refunds';
import { mapChargeStatus, providerErrorFor, type WooviCharge } from './woovi.transformers';

/** Woovi's largest page. */
export const WOOVI_MAX_LIST_LIMIT = 100;

export interface WooviChargeList {
  pageInfo?: { skip?: number; limit?: number; totalCount?: number; hasNextPage?: boolean };
  charges?: WooviCharge[];
}

/** The adapter's call to Woovi (the one woovi.refunds.ts takes). */
export type WooviApi = Parameters<typeof wooviChargeRefunds>[0];

/** One listed charge, its refunded cents given (they are not in the list). */
export function listedChargeOf(charge: WooviCharge, amountRefunded: number): ListedCharge {
  assertCents(charge.value, 'value');
  assertCents(amountRefunded, 'amountRefunded');
  const status = mapChargeStatus(charge.status).status;
  const fee = charge.status === 'COMPLETED' && typeof charge.fee === 'number' ? charge.fee : null;
  if (fee !== null) assertCents(fee, 'fee');
  const created = Date.parse(charge.createdAt ?? '');
  return {
    providerPaymentId: charge.correlationID,
    status,
    amount: charge.value,
    amountRefunded,
    fee,
    method: 'pix',
    createdAt: new Date(Number.isFinite(created) ? created : 0),
    // The correlationID is our idempotency key (or its digest): what we set at creation.
    reference: charge.correlationID,
  };
}

function skipOf(cursor: string | null): number {
  if (cursor === null) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    parsed = undefined;
  }
  const skip = (parsed as { skip?: unknown } | undefined)?.skip;
  if (typeof skip !== 'number' || !Number.isSafeInteger(skip) || skip < 0) {
    throw new ProviderError('rejected', 'provider_rejected', 'woovi list charges: cursor is not one this adapter gave');
  }
  return skip;
}

export async function listWooviCharges(api: WooviApi, period: ChargePeriod, cursor: string | null, pageSize = WOOVI_MAX_LIST_LIMIT): Promise<ChargePage> {
  const skip = skipOf(cursor);
  const limit = Math.min(Math.max(1, Math.floor(pageSize)), WOOVI_MAX_LIST_LIMIT);
  // `end` is inclusive: the adapter asks up to `to` and drops what falls at or after it.
  const query = new URLSearchParams({ start: period.from.toISOString(), end: period.to.toISOString(), skip: String(skip), limit: String(limit) });
  const answer = await api('GET', `/api/v1/charge?${query.toString()}`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list charges');
  const body = answer.body as WooviChargeList;
  const raw = body.charges ?? [];
  const charges: ListedCharge[] = [];
  for (const charge of raw) {
    const created = Date.parse(charge.createdAt ?? '');
    if (Number.isFinite(created) && (created < period.from.getTime() || created >= period.to.getTime())) continue;
    // Refunds only exist on a paid charge; a failure to read them fails the page (retried), since
    // a guess of zero would report a refund difference that is not there.
    const refunds = charge.status === 'COMPLETED' ? await wooviChargeRefunds(api, charge.correlationID) : [];
    const refunded = refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
    charges.push(listedChargeOf(charge, refunded));
  }
  const more = body.pageInfo?.hasNextPage ?? raw.length === limit;
  return { charges, next: more && raw.length > 0 ? JSON.stringify({ skip: nextListOffset(skip, raw.length) }) : null };
}

/**
 * `GET /v1/payments/search`: the account's payments, filtered by a date range and paged by
 * offset/limit, answered `{paging{total, limit, offset}, results[]}` with each payment as
 * `GET /v1/payments/{id}` answers it (Mercado Pago API reference "Search payments").
 * - `range` (date_created by default, date_approved, date_last_updated, money_release_date) is the
 *   date `begin_date`..`end_date` apply to, both inclusive; dates are ISO 8601 with an offset
 *   (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`), a calendar day (São Paulo), or relative: `NOW`, `NOW-30DAYS`,
 *   `NOW-1MONTH(S)`; defaults NOW-3MONTHS and NOW;
 * - `sort` (date_created, date_approved, date_last_updated, id, money_release_date) and `criteria`
 *   (asc | desc; default desc);
 * - `offset` (0) and `limit` (30; at most 1000 here, the real cap is unconfirmed);
 * - `external_reference` and `status` filters.
 * Errors: 400 with the documented cause codes 1000 (rows), 1001 (date format), 1003 (sort), 1004 (criteria).
 */
import { Router } from 'express';
import { accountOf } from './auth';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { MpApiError } from './mp-errors';
import { parseMpDate } from './mp-format';
import { paymentJson } from './payment-json';

const DAY_MS = 86_400_000;
const RANGES = ['date_created', 'date_approved', 'date_last_updated', 'money_release_date'] as const;
const SORTS = ['date_created', 'date_approved', 'date_last_updated', 'money_release_date', 'id'] as const;
type DateField = (typeof RANGES)[number];

const searchError = (code: number, message: string) => new MpApiError({ message, error: 'bad_request', status: 400, cause: [{ code, description: message, data: null }] });

/** The instant a payment's date field names (money is released when approved here). */
function dateOf(payment: StoredPayment, field: DateField): number | undefined {
  switch (field) {
    case 'date_created':
      return payment.createdAt.getTime();
    case 'date_last_updated':
      return payment.updatedAt.getTime();
    case 'date_approved':
    case 'money_release_date':
      return payment.approvedAt?.getTime();
  }
}

/** A search date; `end` moves a calendar day to its last millisecond. */
export function parseSearchDate(raw: unknown, fallback: string, now: Date, end: boolean): Date {
  const text = typeof raw === 'string' && raw !== '' ? raw : fallback;
  const relative = /^NOW(?:-(\d{1,4})(DAYS?|MONTHS?))?$/.exec(text);
  if (relative) {
    if (!relative[1]) return now;
    const n = Number(relative[1]);
    if (relative[2]?.startsWith('DAY')) return new Date(now.getTime() - n * DAY_MS);
    const at = new Date(now);
    at.setUTCMonth(at.getUTCMonth() - n);
    return at;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00.000-03:00`);
    if (Number.isFinite(start)) return new Date(end ? start + DAY_MS - 1 : start);
  }
  // `Z`, `-03:00` or the Java pattern's `-0300`.
  const date = parseMpDate(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (!date) throw searchError(1001, "Date format must be yyyy-MM-dd'T'HH:mm:ss.SSSZ.");
  return date;
}

function integer(raw: unknown, fallback: number): number | undefined {
  if (raw === undefined) return fallback;
  return typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

export function searchRoutes(state: EmulatorState): Router {
  const router = Router();
  router.get('/v1/payments/search', (req, res) => {
    const query = req.query as Record<string, unknown>;
    const now = state.now();
    const range = (query['range'] ?? 'date_created') as DateField;
    if (!RANGES.includes(range)) throw searchError(1, 'Params Error: range must be one of ' + RANGES.join(', '));
    const sort = (query['sort'] ?? 'date_created') as (typeof SORTS)[number];
    if (!SORTS.includes(sort)) throw searchError(1003, 'Invalid sort value.');
    const criteria = query['criteria'] ?? 'desc';
    if (criteria !== 'asc' && criteria !== 'desc') throw searchError(1004, 'Invalid criteria value.');
    const begin = parseSearchDate(query['begin_date'], 'NOW-3MONTHS', now, false);
    const finish = parseSearchDate(query['end_date'], 'NOW', now, true);
    const offset = integer(query['offset'], 0);
    const limit = integer(query['limit'], 30);
    if (offset === undefined || limit === undefined || limit < 1) throw searchError(1, 'Params Error: offset and limit must be non-negative integers.');
    if (limit > 1000) throw searchError(1000, 'Number of rows exceeded the limits.');
    const externalReference = typeof query['external_reference'] === 'string' ? query['external_reference'] : undefined;
    const status = typeof query['status'] === 'string' ? query['status'] : undefined;

    const found = state
      .listPayments(accountOf(res).userId)
      .filter((p) => {
        const at = dateOf(p, range);
        return at !== undefined && at >= begin.getTime() && at <= finish.getTime();
      })
      .filter((p) => (externalReference === undefined || p.request.externalReference === externalReference) && (status === undefined || p.status === status));
    const key = (p: StoredPayment) => (sort === 'id' ? p.id : (dateOf(p, sort) ?? 0));
    // Ties broken by id, so pages never overlap or skip.
    found.sort((a, b) => key(a) - key(b) || a.id - b.id);
    if (criteria === 'desc') found.reverse();
    res.status(200).json({ paging: { total: found.length, limit, offset }, results: found.slice(offset, offset + limit).map(paymentJson) });
  });
  return router;
}

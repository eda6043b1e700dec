import { AppError } from '@orquestra/platform';
import type { analytics } from '@orquestra/contracts';
import type { BucketDoc, BucketModel } from './analytics.model';
import { addCounts, ANALYTICS_TIME_ZONE, COUNT_FIELDS, toFigures, zeroCounts, type Counts } from './figures';

export const MAX_RANGE_DAYS = 366;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD that names a real calendar day, as a UTC midnight (for day arithmetic only). */
function parseDay(value: string): Date | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return at.toISOString().slice(0, 10) === value ? at : null;
}

/** Every calendar day from start to end, both included; bad ranges are parameter_invalid in Portuguese. */
export function daysOfRange(start: string, end: string): string[] {
  const from = parseDay(start);
  if (!from) throw new AppError('parameter_invalid', { param: 'start', message: 'Informe start como uma data no formato AAAA-MM-DD (ex.: 2026-11-01).' });
  const to = parseDay(end);
  if (!to) throw new AppError('parameter_invalid', { param: 'end', message: 'Informe end como uma data no formato AAAA-MM-DD (ex.: 2026-11-30).' });
  if (from > to) throw new AppError('parameter_invalid', { param: 'start', message: 'start deve ser igual ou anterior a end.' });
  const count = Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1;
  if (count > MAX_RANGE_DAYS) {
    throw new AppError('parameter_invalid', { param: 'days', message: `O período pode ter no máximo ${MAX_RANGE_DAYS} dias; escolha start e end mais próximos.` });
  }
  return Array.from({ length: count }, (_, i) => new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10));
}

function countsOf(bucket: BucketDoc): Counts {
  const counts = zeroCounts();
  for (const field of COUNT_FIELDS) counts[field] = Number(bucket[field] ?? 0);
  return counts;
}

function figures(counts: Counts): analytics.Figures {
  const shown = toFigures(counts);
  return {
    gross: shown.gross,
    refunded: shown.refunded,
    fees: shown.fees,
    net: shown.net,
    created: shown.created,
    approved: shown.approved,
    refused: shown.refused,
    canceled: shown.canceled,
    pending: shown.pending,
    approval_rate: shown.approval_rate,
  };
}

const byKey = <T>(map: Map<string, T>, key: string, make: () => T): T => {
  let found = map.get(key);
  if (!found) {
    found = make();
    map.set(key, found);
  }
  return found;
};

/**
 * GET /analytics/overview: one read of the merchant's buckets for the days (index merchant_id,
 * mode, day), summed here. Its cost follows the buckets (days × accounts × methods), not the payments.
 */
export class AnalyticsOverview {
  constructor(private readonly buckets: BucketModel) {}

  async get(scope: { merchantId: string; mode: 'test' | 'live' }, start: string, end: string): Promise<analytics.GetOverviewResponse> {
    const days = daysOfRange(start, end);
    const found = await this.buckets
      .find({ merchant_id: scope.merchantId, mode: scope.mode, day: { $gte: start, $lte: end } }, { ops: 0 })
      .lean<BucketDoc[]>();

    const totals = zeroCounts();
    const daily = new Map(days.map((day) => [day, zeroCounts()]));
    const methods = new Map<string, Counts>();
    const accounts = new Map<string, { provider: string; counts: Counts; methods: Map<string, Counts> }>();
    for (const bucket of found) {
      const counts = countsOf(bucket);
      // A bucket all of whose payments moved to another (method chosen, failover) holds zeros: not an entry.
      if (COUNT_FIELDS.every((field) => counts[field] === 0)) continue;
      addCounts(totals, counts);
      const day = daily.get(bucket.day);
      if (day) addCounts(day, counts);
      addCounts(byKey(methods, bucket.method, zeroCounts), counts);
      const account = byKey(accounts, bucket.provider_account_id, () => ({ provider: '', counts: zeroCounts(), methods: new Map<string, Counts>() }));
      if (bucket.provider) account.provider = bucket.provider;
      addCounts(account.counts, counts);
      addCounts(byKey(account.methods, bucket.method, zeroCounts), counts);
    }

    const methodList = (map: Map<string, Counts>) =>
      [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([method, counts]) => ({ method, figures: figures(counts) }));
    return {
      start_date: start,
      end_date: end,
      timezone: ANALYTICS_TIME_ZONE,
      totals: figures(totals),
      // Largest volume first, then by account id, so the order is stable.
      by_provider: [...accounts.entries()]
        .sort(([idA, a], [idB, b]) => b.counts.gross - a.counts.gross || b.counts.created - a.counts.created || idA.localeCompare(idB))
        .map(([id, account]) => ({ provider_account_id: id, provider: account.provider, figures: figures(account.counts), by_method: methodList(account.methods) })),
      by_method: methodList(methods),
      daily: days.map((day) => ({ date: day, figures: figures(daily.get(day) ?? zeroCounts()) })),
    };
  }
}

import { saoPauloDate } from '@orquestra/platform';
import type { PaymentStatus } from '../domain/payment-status';

/**
 * Bucket arithmetic of the analytics overview (docs/analytics.md). Pure functions: what one payment
 * state adds to which bucket, the change between two states, and the São Paulo calendar day.
 */

export const ANALYTICS_TIME_ZONE = 'America/Sao_Paulo';

/** The stored figures of a bucket (net and the approval rate are derived when read). */
export interface Counts {
  gross: number;
  refunded: number;
  fees: number;
  created: number;
  approved: number;
  refused: number;
  canceled: number;
  pending: number;
}

export const COUNT_FIELDS: ReadonlyArray<keyof Counts> = ['gross', 'refunded', 'fees', 'created', 'approved', 'refused', 'canceled', 'pending'];

export function zeroCounts(): Counts {
  return { gross: 0, refunded: 0, fees: 0, created: 0, approved: 0, refused: 0, canceled: 0, pending: 0 };
}

/** What identifies a bucket: one per merchant, mode, São Paulo day, provider account and method. */
export interface BucketKey {
  merchant_id: string;
  mode: 'test' | 'live';
  /** YYYY-MM-DD in America/Sao_Paulo. */
  day: string;
  /** '' when no account charged the payment. */
  provider_account_id: string;
  /** pix, boleto, card, or 'none' when no method was chosen. */
  method: string;
}

/** The bucket's document id: writes always address a bucket by `_id`. */
export function bucketId(key: BucketKey): string {
  return [key.merchant_id, key.mode, key.day, key.provider_account_id, key.method].join('|');
}

/** The fields of a payment the analytics read (the public payment carried by payment.* events). */
export interface PaymentState {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  status: PaymentStatus;
  amount: number;
  amount_refunded: number;
  fee: number;
  method: string;
  provider: string;
  provider_account_id: string;
  created_at: Date;
  updated_at: Date;
}

/** What a payment currently adds to one bucket. */
export interface Contribution {
  bucket: BucketKey;
  /** The provider's name (efi, stripe…), shown beside its account; '' when none. */
  provider: string;
  counts: Counts;
}

const APPROVED: ReadonlySet<PaymentStatus> = new Set<PaymentStatus>(['succeeded', 'partially_refunded', 'refunded']);
const PENDING: ReadonlySet<PaymentStatus> = new Set<PaymentStatus>(['requires_method', 'pending', 'processing']);

/** The calendar day (YYYY-MM-DD) of an instant in America/Sao_Paulo (the platform's one conversion). */
export function saoPauloDay(at: Date): string {
  return saoPauloDate(at);
}

/** Every payment is in exactly one bucket, and counts there once as created and once in one status group. */
export function contributionOf(payment: PaymentState): Contribution {
  const approved = APPROVED.has(payment.status);
  const counts: Counts = {
    gross: approved ? payment.amount : 0,
    refunded: payment.amount_refunded,
    // The fee is what the provider kept of a paid payment; an unpaid one cost nothing.
    fees: approved ? payment.fee : 0,
    created: 1,
    approved: approved ? 1 : 0,
    refused: payment.status === 'failed' ? 1 : 0,
    canceled: payment.status === 'canceled' ? 1 : 0,
    pending: PENDING.has(payment.status) ? 1 : 0,
  };
  return {
    bucket: {
      merchant_id: payment.merchant_id,
      mode: payment.mode,
      day: saoPauloDay(payment.created_at),
      provider_account_id: payment.provider_account_id,
      method: payment.method || 'none',
    },
    provider: payment.provider_account_id ? payment.provider : '',
    counts,
  };
}

/** One `$inc` to apply to one bucket. */
export interface BucketDelta {
  bucket: BucketKey;
  provider: string;
  inc: Counts;
}

function minus(a: Counts, b: Counts): Counts {
  const out = zeroCounts();
  for (const field of COUNT_FIELDS) out[field] = a[field] - b[field];
  return out;
}

function isZero(counts: Counts): boolean {
  return COUNT_FIELDS.every((field) => counts[field] === 0);
}

/**
 * What moves a payment's contribution from `from` (null: it added nothing yet) to `to`. Same
 * bucket: one delta (the difference); another bucket (method chosen later, failover to another
 * account): the old one loses all it had and the new one gains all of it. Zero deltas are omitted.
 */
export function deltaBetween(from: Contribution | null, to: Contribution | null): BucketDelta[] {
  const deltas: BucketDelta[] = [];
  if (from && to && bucketId(from.bucket) === bucketId(to.bucket)) {
    deltas.push({ bucket: to.bucket, provider: to.provider, inc: minus(to.counts, from.counts) });
  } else {
    if (from) deltas.push({ bucket: from.bucket, provider: from.provider, inc: minus(zeroCounts(), from.counts) });
    if (to) deltas.push({ bucket: to.bucket, provider: to.provider, inc: to.counts });
  }
  return deltas.filter((delta) => !isZero(delta.inc));
}

/**
 * The version of a payment state an event reflects: its updated_at first; on the same millisecond,
 * the state further along (status rank, then the amount refunded) wins, since a payment only moves
 * forward. Compared lexicographically.
 */
export interface StateVersion {
  at: number;
  rank: number;
  refunded: number;
}

const STATUS_RANK: Record<PaymentStatus, number> = {
  requires_method: 0,
  pending: 1,
  processing: 2,
  succeeded: 3,
  failed: 3,
  canceled: 3,
  partially_refunded: 4,
  refunded: 5,
};

export function versionOf(payment: PaymentState): StateVersion {
  return { at: payment.updated_at.getTime(), rank: STATUS_RANK[payment.status] ?? 0, refunded: payment.amount_refunded };
}

/** <0 when a is older than b, 0 when equal, >0 when newer. */
export function compareVersions(a: StateVersion, b: StateVersion): number {
  return a.at - b.at || a.rank - b.rank || a.refunded - b.refunded;
}

/** The figures as the API shows them: net derived, approval rate absent when nothing was decided. */
export interface Figures extends Counts {
  net: number;
  approval_rate?: number;
}

export function toFigures(counts: Counts): Figures {
  const decided = counts.approved + counts.refused;
  return {
    ...counts,
    net: counts.gross - counts.refunded - counts.fees,
    ...(decided > 0 ? { approval_rate: counts.approved / decided } : {}),
  };
}

export function addCounts(into: Counts, add: Counts): Counts {
  for (const field of COUNT_FIELDS) into[field] += add[field];
  return into;
}

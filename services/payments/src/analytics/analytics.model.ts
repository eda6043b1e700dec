import { Schema, type Connection, type Model } from 'mongoose';
import type { Contribution, Counts, StateVersion } from './figures';

/**
 * One bucket of the overview: a merchant's payments of one mode, São Paulo day, provider account
 * and method. `_id` is figures.bucketId(key), so every write addresses it by id; the overview reads
 * a merchant's days through the (merchant_id, mode, day) index.
 */
export interface BucketDoc extends Counts {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  day: string;
  provider_account_id: string;
  method: string;
  provider: string;
  /**
   * The last operations applied to this bucket (bounded window, newest last): an operation whose
   * id is here is never applied again, which makes a resumed operation idempotent.
   */
  ops: string[];
  /** Counts the writes to the figures: the rebuild's `$set` holds only if no `$inc` came between. */
  rev: number;
}

/** An operation moving a payment's contribution, written before it touches any bucket. */
export interface PendingOpDoc {
  op_id: string;
  from: Contribution | null;
  to: Contribution;
  version: StateVersion;
}

/**
 * What one payment currently adds to the buckets (`applied`, reflecting the payment's state at
 * `version`), and the operation under way, if any. `seq` grows with every write: it is the
 * compare-and-set guard, and it names operations (`<payment id>:<seq>`) so an id is never reused.
 */
export interface ContributionDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  seq: number;
  applied: Contribution | null;
  version: StateVersion | null;
  pending: PendingOpDoc | null;
}

const countFields = {
  gross: { type: Number, default: 0 },
  refunded: { type: Number, default: 0 },
  fees: { type: Number, default: 0 },
  created: { type: Number, default: 0 },
  approved: { type: Number, default: 0 },
  refused: { type: Number, default: 0 },
  canceled: { type: Number, default: 0 },
  pending: { type: Number, default: 0 },
};

const bucketSchema = new Schema<BucketDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, required: true },
    day: { type: String, required: true },
    provider_account_id: { type: String, default: '' },
    method: { type: String, required: true },
    provider: { type: String, default: '' },
    ...countFields,
    ops: { type: [String], default: [] },
    rev: { type: Number, default: 0 },
  },
  { versionKey: false, minimize: false },
);
bucketSchema.index({ merchant_id: 1, mode: 1, day: 1 });

const contributionSchema = new Schema<ContributionDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, required: true },
    seq: { type: Number, required: true },
    // Plain nested objects (figures.ts shapes): written and read whole.
    applied: { type: Schema.Types.Mixed, default: null },
    version: { type: Schema.Types.Mixed, default: null },
    pending: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false, minimize: false },
);
// The rebuild recomputes one merchant's buckets from its contributions.
contributionSchema.index({ merchant_id: 1, mode: 1 });

export type BucketModel = Model<BucketDoc>;
export type ContributionModel = Model<ContributionDoc>;

export function registerAnalyticsModels(connection: Connection): { buckets: BucketModel; contributions: ContributionModel } {
  return {
    buckets: connection.model<BucketDoc>('AnalyticsBucket', bucketSchema, 'analytics_buckets'),
    contributions: connection.model<ContributionDoc>('AnalyticsContribution', contributionSchema, 'analytics_contributions'),
  };
}

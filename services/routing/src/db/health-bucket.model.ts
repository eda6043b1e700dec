import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Attempt counts of one provider account over one short time bucket (`_id` is
 * `<account id>:<bucket start ms>`). Every attempt-outcome event is one `$inc` upsert, so routing
 * reads a handful of small documents per account whatever the payment rate.
 */
export interface HealthBucketDoc {
  _id: string;
  account_id: string;
  merchant_id: string;
  bucket_start: Date;
  attempts: number;
  successes: number;
}

const schema = new Schema<HealthBucketDoc>(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    bucket_start: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    successes: { type: Number, default: 0 },
  },
  { versionKey: false },
);
schema.index({ bucket_start: 1 });

export type HealthBucketModel = Model<HealthBucketDoc>;

export function registerHealthBucketModel(connection: Connection): HealthBucketModel {
  return connection.model<HealthBucketDoc>('HealthBucket', schema, 'account_health_buckets');
}

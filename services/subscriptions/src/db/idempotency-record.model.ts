import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One Idempotency-Key of one merchant and mode, unique on (merchant_id, mode, key): of many
 * concurrent creates with the same key exactly one inserts it, and all of them then create under
 * the subscription id it holds. That id is the provider's idempotency key for the recurrence and
 * the subscription's `_id`, so a repeat (concurrent, or after a crash or a failure) never makes a
 * second recurrence or a second subscription. No lease and no lock: the unique inserts decide.
 */
export interface IdempotencyRecordDoc {
  /** `<merchant>:<mode>:<key>`: the unique key itself. */
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  key: string;
  request_hash: string;
  subscription_id: string;
  /** The account the first request chose: every repeat creates at the same one. */
  provider_account_id: string;
  /**
   * Set when the creation under this key failed (nothing made): requests that waited meanwhile
   * answer the same error; a later request with the key retries under the same id.
   */
  failure?: { code: string; message: string; param: string; at: Date } | null;
  created_at: Date;
}

const schema = new Schema<IdempotencyRecordDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    key: { type: String, required: true },
    request_hash: { type: String, required: true },
    subscription_id: { type: String, required: true },
    provider_account_id: { type: String, required: true },
    failure: { type: new Schema({ code: String, message: String, param: String, at: Date }, { _id: false }), default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// Keys are kept for their retention period only (spec §5).
schema.index({ created_at: 1 }, { expireAfterSeconds: 24 * 60 * 60 });

export type IdempotencyRecordModel = Model<IdempotencyRecordDoc>;

export function registerIdempotencyRecordModel(connection: Connection): IdempotencyRecordModel {
  return connection.model<IdempotencyRecordDoc>('SubscriptionIdempotencyRecord', schema, 'idempotency_records');
}

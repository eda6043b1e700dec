import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One Idempotency-Key of one merchant and mode. `_id` is `<merchant>:<mode>:<key>`, so of many
 * concurrent requests with the same key exactly one inserts it and creates the payment; the others
 * wait for that payment. A creation that failed everywhere leaves `state: failed`, and the next
 * request with the key may try again (nothing was charged).
 */
export interface IdempotencyRecordDoc {
  _id: string;
  request_hash: string;
  payment_id: string;
  state: 'in_progress' | 'done' | 'failed';
  error_code: string;
  error_message: string;
  error_param: string;
  created_at: Date;
  /** An in-progress claim older than this is considered abandoned (its owner crashed). */
  lease_until: Date;
  /**
   * The current owner's own token, new with every claim and takeover. Every write of an owner
   * (lease renewal, naming an account, complete, fail) is conditional on it: a slow owner presumed
   * dead, whose successor resumed the same payment id, can no longer write over its successor.
   */
  owner?: string;
  /**
   * Set once a creation under this key ended uncertain (provider_timeout): a charge may exist under
   * `payment_id`, so every later owner keeps that id (and the provider idempotency keys made from
   * it) for good, never charging under a new one.
   */
  uncertain?: boolean;
  /**
   * The account the owner is asking for the charge now, written before it asks: the first one with
   * the claim itself (routing is asked before the claim), a later one (failover) by its own write.
   * A walk stops at the first account that charges, so this is the one account where an owner that
   * died may have left a charge: the create resumed under `payment_id` asks it first (with the same
   * provider key, which finds that charge) before any other (domain/failover-walk.ts).
   */
  trying?: string;
}

const schema = new Schema<IdempotencyRecordDoc>(
  {
    _id: { type: String, required: true },
    request_hash: { type: String, required: true },
    payment_id: { type: String, required: true },
    state: { type: String, enum: ['in_progress', 'done', 'failed'], required: true },
    error_code: { type: String, default: '' },
    error_message: { type: String, default: '' },
    error_param: { type: String, default: '' },
    created_at: { type: Date, required: true },
    lease_until: { type: Date, required: true },
    owner: { type: String },
    uncertain: { type: Boolean },
    trying: { type: String },
  },
  { versionKey: false },
);
schema.index({ created_at: 1 });

export type IdempotencyRecordModel = Model<IdempotencyRecordDoc>;

export function registerIdempotencyRecordModel(connection: Connection): IdempotencyRecordModel {
  return connection.model<IdempotencyRecordDoc>('IdempotencyRecord', schema, 'idempotency_records');
}

import type { DueWorkFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A charge that may exist at an account although the payment went elsewhere: the attempt timed
 * out (ambiguous) and failover moved on. Nobody was shown its QR, but it must not stay payable.
 * `_id` is `<payment id>:<account id>`: one record per ambiguous attempt, however often recorded.
 */
export interface OrphanChargeDoc extends DueWorkFields {
  _id: string;
  payment_id: string;
  account_id: string;
  /**
   * The exact CreateCharge request of the attempt (same idempotency key), in its proto JSON form
   * so that it survives the store's round trip (int64, maps, absent optionals).
   */
  request: unknown;
  tries: number;
  created_at: Date;
}

const schema = new Schema<OrphanChargeDoc>(
  {
    _id: { type: String, required: true },
    payment_id: { type: String, required: true },
    account_id: { type: String, required: true },
    // The proto JSON of a CreateChargeRequest: its shape is the generated contract's (fromJSON reads it back).
    request: { type: Schema.Types.Mixed, required: true },
    due_at: { type: Date, default: null },
    tries: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ due_at: 1 });

export type OrphanChargeModel = Model<OrphanChargeDoc>;

export function registerOrphanChargeModel(connection: Connection): OrphanChargeModel {
  return connection.model<OrphanChargeDoc>('OrphanCharge', schema, 'orphan_charges');
}

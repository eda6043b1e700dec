import type { DueWorkFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/** A refund that was left pending (the provider settles it later, or its answer was lost). `_id` is the refund id. */
export interface RefundFollowUpDoc extends DueWorkFields {
  _id: string;
  payment_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  tries: number;
  created_at: Date;
}

const schema = new Schema<RefundFollowUpDoc>(
  {
    _id: { type: String, required: true },
    payment_id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    due_at: { type: Date, default: null },
    tries: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ due_at: 1 });

export type RefundFollowUpModel = Model<RefundFollowUpDoc>;

export function registerRefundFollowUpModel(connection: Connection): RefundFollowUpModel {
  return connection.model<RefundFollowUpDoc>('RefundFollowUp', schema, 'refund_follow_ups');
}

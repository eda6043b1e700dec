import { outboxSchemaFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { attemptSchema, type AttemptDoc } from './payment.model';

/**
 * A creation that failed at every account: nothing was charged and no payment exists, but its
 * attempts are kept (audit) and their internal events tell routing how each account did.
 */
export interface FailedCreationDoc extends OutboxFields, OutboxLeaseFields {
  /** The payment id the creation would have had. */
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  source_key_id: string;
  amount: number;
  method: string;
  error_code: string;
  attempts: AttemptDoc[];
  created_at: Date;
}

const schema = new Schema<FailedCreationDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    amount: { type: Number, required: true },
    method: { type: String, default: '' },
    error_code: { type: String, required: true },
    attempts: { type: [attemptSchema], default: [] },
    created_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
// The outbox sweeper finds documents with events left to publish.
schema.index({ outbox_since: 1 });

export type FailedCreationModel = Model<FailedCreationDoc>;

export function registerFailedCreationModel(connection: Connection): FailedCreationModel {
  return connection.model<FailedCreationDoc>('FailedCreation', schema, 'failed_creations');
}

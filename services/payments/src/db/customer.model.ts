import { Schema, type Connection, type Model } from 'mongoose';

/** A buyer of a merchant: one record per document (digits), merchant and mode. */
export interface CustomerDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  document: string;
  name: string;
  email: string;
  phone: string;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<CustomerDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    document: { type: String, required: true },
    name: { type: String, default: '' },
    email: { type: String, default: '' },
    phone: { type: String, default: '' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// One record per document: concurrent first payments of a buyer converge on it (and look it up by it).
schema.index({ merchant_id: 1, mode: 1, document: 1 }, { unique: true });
// Lists: newest first by _id (ULID order), scoped by merchant and mode.
schema.index({ merchant_id: 1, mode: 1, _id: -1 });

export type CustomerModel = Model<CustomerDoc>;

export function registerCustomerModel(connection: Connection): CustomerModel {
  return connection.model<CustomerDoc>('Customer', schema, 'customers');
}

import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields, type SealedSecret } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { sealedSchema } from './sealed.schema';

/**
 * A saved card (card_…, spec §2). Number and security code are sealed (SecretBox, CARD_ENCRYPTION_KEYS);
 * brand, last4, expiry, holder name and fingerprint are stored in clear (they are what the API
 * shows). `due_at` is when the security code is to be deleted (null once it is). A deleted card
 * stays as a tombstone (`deleted_at`) holding no card data at all, only its ids: the deletion and
 * its card.deleted event are one write, and the token it came from can never be saved again.
 */
export interface CardDoc extends OutboxFields, OutboxLeaseFields, DueWorkFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  source_key_id: string;
  customer_id: string;
  /** The tok_ it was saved from (unique: one token, one card). */
  token_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  holder_name: string;
  fingerprint: string;
  number_sealed: SealedSecret | null;
  cvc_sealed: SealedSecret | null;
  cvc_available_until: Date | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const schema = new Schema<CardDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    customer_id: { type: String, default: '' },
    token_id: { type: String, required: true },
    brand: { type: String, default: '' },
    last4: { type: String, default: '' },
    exp_month: { type: Number, default: 0 },
    exp_year: { type: Number, default: 0 },
    holder_name: { type: String, default: '' },
    fingerprint: { type: String, default: '' },
    number_sealed: { type: sealedSchema, default: null },
    cvc_sealed: { type: sealedSchema, default: null },
    cvc_available_until: { type: Date, default: null },
    // The merchant's own keys and values: free-form by definition.
    metadata: { type: Schema.Types.Mixed, default: {} },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    deleted_at: { type: Date, default: null },
    due_at: { type: Date, default: null },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
schema.index({ token_id: 1 }, { unique: true });
schema.index({ merchant_id: 1, mode: 1, deleted_at: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, customer_id: 1, deleted_at: 1, _id: -1 });
schema.index({ due_at: 1 });
schema.index({ 'number_sealed.key_id': 1 });
schema.index({ 'cvc_sealed.key_id': 1 });

export type CardModel = Model<CardDoc>;

export function registerCardModel(connection: Connection): CardModel {
  return connection.model<CardDoc>('Card', schema, 'cards');
}

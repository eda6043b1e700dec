import type { DueWorkFields, SealedSecret } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { sealedSchema } from './sealed.schema';

/**
 * A card fields token (tok_…): the card as tokenized, number and security code sealed, for 24
 * hours. Saving it moves the sealed data into the card and removes it here (`used_at`); due work
 * deletes the security code an hour after tokenizing and the number when the token expires, and
 * the document itself a week later (it keeps only brand, last4 and expiry meanwhile, so a late
 * save or charge is told "expired" rather than "unknown").
 */
export interface CardTokenDoc extends DueWorkFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  number_sealed: SealedSecret | null;
  cvc_sealed: SealedSecret | null;
  cvc_available_until: Date | null;
  origin: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  /** The card it was saved as. */
  card_id: string;
  /** The one payment it may be charged for (set by the first charge's RevealCard). */
  charged_for?: string | null;
}

const schema = new Schema<CardTokenDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    brand: { type: String, required: true },
    last4: { type: String, required: true },
    exp_month: { type: Number, required: true },
    exp_year: { type: Number, required: true },
    fingerprint: { type: String, required: true },
    number_sealed: { type: sealedSchema, default: null },
    cvc_sealed: { type: sealedSchema, default: null },
    cvc_available_until: { type: Date, default: null },
    origin: { type: String, default: '' },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    used_at: { type: Date, default: null },
    card_id: { type: String, default: '' },
    charged_for: { type: String, default: null },
    due_at: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
schema.index({ due_at: 1 });
// Key rotation finds what an older key sealed.
schema.index({ 'number_sealed.key_id': 1 });
schema.index({ 'cvc_sealed.key_id': 1 });

export type CardTokenModel = Model<CardTokenDoc>;

export function registerCardTokenModel(connection: Connection): CardTokenModel {
  return connection.model<CardTokenDoc>('CardToken', schema, 'card_tokens');
}

import { Schema, type Connection, type Model } from 'mongoose';

/**
 * The payment page's visit (one per payment, `_id` = payment id): the first visit's tracking and
 * time are kept, the last IP, browser, address and referrer replace the previous ones.
 */
export interface VisitDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  tracking: Record<string, string>;
  ip: string | null;
  user_agent: string | null;
  url: string | null;
  referrer: string | null;
  count: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

const schema = new Schema<VisitDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    // The spec's tracking keys (libs/contracts TRACKING_KEYS) and their texts.
    tracking: { type: Map, of: String, default: {} },
    ip: { type: String, default: null },
    user_agent: { type: String, default: null },
    url: { type: String, default: null },
    referrer: { type: String, default: null },
    count: { type: Number, default: 0 },
    first_seen_at: { type: Date, required: true },
    last_seen_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);

export type VisitModel = Model<VisitDoc>;

// The buyer's IP and browser are kept as long as the sale they attribute (sale.model.ts), then removed.
schema.index({ first_seen_at: 1 }, { expireAfterSeconds: 60 * 24 * 60 * 60 });

export function registerVisitModel(connection: Connection): VisitModel {
  return connection.model<VisitDoc>('Visit', schema, 'visits');
}

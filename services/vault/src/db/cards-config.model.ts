import { Schema, type Connection, type Model } from 'mongoose';

/** The card fields' configuration of one merchant in one mode. `_id` is `<merchant>:<mode>`. */
export interface CardsConfigDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  /** pk_test_… / pk_live_…: not a secret (it is in the merchant's page); unique. */
  publishable_key: string;
  /** Normalized `scheme://host[:port]`; empty: any site. */
  allowed_origins: string[];
  /** Test mode is on from the start; live mode off until the owner turns it on. */
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<CardsConfigDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    publishable_key: { type: String, required: true },
    allowed_origins: { type: [String], default: [] },
    enabled: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ publishable_key: 1 }, { unique: true });

export type CardsConfigModel = Model<CardsConfigDoc>;

export function registerCardsConfigModel(connection: Connection): CardsConfigModel {
  return connection.model<CardsConfigDoc>('CardsConfig', schema, 'cards_configs');
}

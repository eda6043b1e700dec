import type { SealedSecret } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { IntegrationKindId } from '../tools/ad-tool';

export const INTEGRATION_SALES = ['live', 'test', 'both'] as const;
export type IntegrationSales = (typeof INTEGRATION_SALES)[number];

/**
 * A merchant's integration with an ad tool (itg_…). It belongs to the merchant, not to a mode:
 * any full key of the merchant manages it, and `sales` says which sales it receives. Credentials
 * are one SecretBox seal of their JSON (INTEGRATION_CREDENTIALS_KEYS); only their last 4
 * characters are kept in clear, for display.
 */
export interface IntegrationDoc {
  _id: string;
  merchant_id: string;
  kind: IntegrationKindId;
  name: string;
  enabled: boolean;
  sales: IntegrationSales;
  options: Record<string, string>;
  credentials_sealed: SealedSecret;
  credentials_last4: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const sealedSchema = new Schema<SealedSecret>(
  {
    key_id: { type: String, required: true },
    iv: { type: String, required: true },
    tag: { type: String, required: true },
    data: { type: String, required: true },
  },
  { _id: false },
);

const schema = new Schema<IntegrationDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    kind: { type: String, required: true },
    name: { type: String, required: true },
    enabled: { type: Boolean, required: true },
    sales: { type: String, enum: INTEGRATION_SALES, required: true },
    // The kind's options, checked by checkIntegrationInput: plain texts by option name.
    options: { type: Map, of: String, default: {} },
    credentials_sealed: { type: sealedSchema, required: true },
    credentials_last4: { type: Map, of: String, default: {} },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ merchant_id: 1, _id: 1 });
schema.index({ 'credentials_sealed.key_id': 1 });

export type IntegrationModel = Model<IntegrationDoc>;

export function registerIntegrationModel(connection: Connection): IntegrationModel {
  return connection.model<IntegrationDoc>('Integration', schema, 'integrations');
}

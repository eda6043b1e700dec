import type { SealedSecret } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

export interface FeeRuleDoc {
  method: string;
  percent_bps: number;
  fixed: number;
}

export interface ProviderAccountDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  provider: string;
  name: string;
  priority: number;
  enabled: boolean;
  methods: string[];
  fees: FeeRuleDoc[];
  /** JSON of the credential fields, sealed with SecretBox. Never returned, never logged. */
  credentials_sealed: SealedSecret;
  credentials_last4: Record<string, string>;
  /** Secret embedded in the webhook URL registered at the provider, sealed. */
  webhook_secret_sealed: SealedSecret;
  /** Secret the provider issued for verifying its webhooks (e.g. Stripe's whsec_), sealed. */
  signing_secret_sealed: SealedSecret | null;
  /**
   * Providers whose subaccounts report on an endpoint of their own (Stripe Connect: `connect=true`,
   * `account.updated`): that endpoint's signing secret. Null elsewhere.
   */
  subaccount_signing_secret_sealed?: SealedSecret | null;
  /** The provider has no webhook API: the owner must paste our URL in its dashboard. */
  webhook_manual_setup: boolean;
  created_at: Date;
  updated_at: Date;
}

const sealedSchema = new Schema<SealedSecret>(
  { key_id: String, iv: String, tag: String, data: String },
  { _id: false },
);

const schema = new Schema<ProviderAccountDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    provider: { type: String, required: true },
    name: { type: String, default: '' },
    priority: { type: Number, required: true },
    enabled: { type: Boolean, required: true },
    methods: { type: [String], required: true },
    fees: { type: [{ _id: false, method: String, percent_bps: Number, fixed: Number }], default: [] },
    credentials_sealed: { type: sealedSchema, required: true },
    credentials_last4: { type: Map, of: String, default: {} },
    webhook_secret_sealed: { type: sealedSchema, required: true },
    signing_secret_sealed: { type: sealedSchema, default: null },
    subaccount_signing_secret_sealed: { type: sealedSchema, default: null },
    webhook_manual_setup: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ merchant_id: 1, mode: 1, priority: 1 });

export type ProviderAccountModel = Model<ProviderAccountDoc>;

export function registerProviderAccountModel(connection: Connection): ProviderAccountModel {
  return connection.model<ProviderAccountDoc>('ProviderAccount', schema, 'provider_accounts');
}

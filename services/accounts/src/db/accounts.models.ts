import { Schema, type Connection, type Model } from 'mongoose';
import { PIX_KEY_TYPES, type PixKeyType } from '../domain/pix-key';
import { registerRequestLogModel, type RequestLogDoc } from './request-log.model';

export interface MerchantDoc {
  _id: string;
  name: string;
  email: string;
  created_at: Date;
}

export interface ApiKeyDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  kind: 'full' | 'restricted';
  name: string;
  hash: string;
  last4: string;
  created_at: Date;
  revoked_at: Date | null;
  /** The creating owner's e-mail ('' for keys made by the stack seed or tooling). */
  created_by?: string;
  /** Written at most once a minute per key (guarded update in AuthenticateKey). */
  last_used_at?: Date | null;
}

const merchantSchema = new Schema<MerchantDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
merchantSchema.index({ email: 1 }, { unique: true });

const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    kind: { type: String, enum: ['full', 'restricted'], required: true },
    name: { type: String, default: '' },
    hash: { type: String, required: true },
    last4: { type: String, required: true },
    created_at: { type: Date, required: true },
    revoked_at: { type: Date, default: null },
    created_by: { type: String, default: '' },
    last_used_at: { type: Date, default: null },
  },
  { versionKey: false },
);
apiKeySchema.index({ hash: 1 }, { unique: true });
apiKeySchema.index({ merchant_id: 1, mode: 1 });

/** The owner's payout controls of one merchant in one mode; absent until the owner sets one. */
export interface PayoutSettingsDoc {
  /** `<merchant_id>:<mode>`: one document per merchant and mode, upserted by a single write. */
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  api_enabled: boolean;
  /** Cents per São Paulo calendar day. */
  daily_limit: number;
  updated_at: Date;
}

/** A saved Pix key (pdest_…) payouts may go to. `key` is normalized (see domain/pix-key). */
export interface PayoutDestinationDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  key_type: PixKeyType;
  key: string;
  label: string;
  created_at: Date;
}

const payoutSettingsSchema = new Schema<PayoutSettingsDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    api_enabled: { type: Boolean, required: true },
    daily_limit: { type: Number, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);

const payoutDestinationSchema = new Schema<PayoutDestinationDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    key_type: { type: String, enum: PIX_KEY_TYPES, required: true },
    key: { type: String, required: true },
    label: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// One key is saved once per merchant and mode: a second save finds the first (unique insert).
payoutDestinationSchema.index({ merchant_id: 1, mode: 1, key: 1 }, { unique: true });

export interface AccountsModels {
  merchants: Model<MerchantDoc>;
  apiKeys: Model<ApiKeyDoc>;
  payoutSettings: Model<PayoutSettingsDoc>;
  payoutDestinations: Model<PayoutDestinationDoc>;
  requestLogs: Model<RequestLogDoc>;
}

export function registerAccountsModels(connection: Connection): AccountsModels {
  return {
    merchants: connection.model<MerchantDoc>('Merchant', merchantSchema, 'merchants'),
    apiKeys: connection.model<ApiKeyDoc>('ApiKey', apiKeySchema, 'api_keys'),
    payoutSettings: connection.model<PayoutSettingsDoc>('PayoutSettings', payoutSettingsSchema, 'payout_settings'),
    payoutDestinations: connection.model<PayoutDestinationDoc>('PayoutDestination', payoutDestinationSchema, 'payout_destinations'),
    requestLogs: registerRequestLogModel(connection),
  };
}

import { Schema, type Connection, type Model } from 'mongoose';

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
  },
  { versionKey: false },
);
apiKeySchema.index({ hash: 1 }, { unique: true });
apiKeySchema.index({ merchant_id: 1, mode: 1 });

export interface AccountsModels {
  merchants: Model<MerchantDoc>;
  apiKeys: Model<ApiKeyDoc>;
}

export function registerAccountsModels(connection: Connection): AccountsModels {
  return {
    merchants: connection.model<MerchantDoc>('Merchant', merchantSchema, 'merchants'),
    apiKeys: connection.model<ApiKeyDoc>('ApiKey', apiKeySchema, 'api_keys'),
  };
}

import { Schema, type Connection, type Model } from 'mongoose';
import type { SealedSecret } from '@orquestra/platform';

/**
 * One model of the gateway's OAuth server (oidc-provider): a grant, a session, an interaction,
 * an authorization code, an access or refresh token… stored as the library's JSON payload.
 * `merchant_id`, `mode`, `client_id`, `grant_id`, `uid` and `user_code` are copied out of the
 * payload at each write so that look-ups and revocations are index scans.
 */
export interface OAuthModelDoc {
  /** `<model>:<id>`: one document per library model, upserted by one write. */
  _id: string;
  model: string;
  payload_json: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  client_id: string | null;
  merchant_id: string | null;
  mode: 'test' | 'live' | null;
  consumed_at: Date | null;
  /** Removed by the TTL index (real MongoDB) and ignored by every read once past. */
  expires_at: Date | null;
  updated_at: Date;
}

/** An OAuth app (the library's Client), registered by the owner of `merchant_id`. */
export interface OAuthAppDoc {
  /** The client_id: `oapp_…`. */
  _id: string;
  merchant_id: string;
  name: string;
  redirect_uris: string[];
  logo_url: string;
  secret: SealedSecret;
  created_at: Date;
}

const oauthModelSchema = new Schema<OAuthModelDoc>(
  {
    _id: { type: String, required: true },
    model: { type: String, required: true },
    payload_json: { type: String, required: true },
    grant_id: { type: String, default: null },
    uid: { type: String, default: null },
    user_code: { type: String, default: null },
    client_id: { type: String, default: null },
    merchant_id: { type: String, default: null },
    mode: { type: String, enum: ['test', 'live', null], default: null },
    consumed_at: { type: Date, default: null },
    expires_at: { type: Date, default: null },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
oauthModelSchema.index({ grant_id: 1 });
oauthModelSchema.index({ uid: 1 });
oauthModelSchema.index({ user_code: 1 });
oauthModelSchema.index({ client_id: 1 });
oauthModelSchema.index({ merchant_id: 1, model: 1 });
oauthModelSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

const sealedSchema = new Schema<SealedSecret>(
  { key_id: { type: String, required: true }, iv: { type: String, required: true }, tag: { type: String, required: true }, data: { type: String, required: true } },
  { _id: false },
);

const oauthAppSchema = new Schema<OAuthAppDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    name: { type: String, required: true },
    redirect_uris: { type: [String], required: true },
    logo_url: { type: String, default: '' },
    secret: { type: sealedSchema, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
oauthAppSchema.index({ merchant_id: 1 });

export interface OAuthModels {
  oauthModels: Model<OAuthModelDoc>;
  oauthApps: Model<OAuthAppDoc>;
}

export function registerOAuthModels(connection: Connection): OAuthModels {
  return {
    oauthModels: connection.model<OAuthModelDoc>('OAuthModel', oauthModelSchema, 'oauth_models'),
    oauthApps: connection.model<OAuthAppDoc>('OAuthApp', oauthAppSchema, 'oauth_apps'),
  };
}

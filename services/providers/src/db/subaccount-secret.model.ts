import type { SealedSecret } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A credential a provider issued for one subaccount (Asaas answers the subaccount's apiKey once, on
 * its creation, and reads its status and balance only with it). Collection `subaccount_secrets`,
 * one document per (provider account, our subaccount id), sealed with the credentials' SecretBox.
 */
export interface SubaccountSecretDoc {
  /** `<provider account id>/<our subaccount id>`: the unique insert that keeps the first secret. */
  _id: string;
  account_id: string;
  subaccount_id: string;
  /**
   * The provider's id of the subaccount: an Asaas webhook names only it, and the intake finds our
   * subaccount id and the secret to read the subaccount with by it.
   */
  provider_subaccount_id: string;
  secret_sealed: SealedSecret;
  created_at: Date;
}

const sealedSchema = new Schema<SealedSecret>({ key_id: String, iv: String, tag: String, data: String }, { _id: false });

const schema = new Schema<SubaccountSecretDoc>(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    subaccount_id: { type: String, required: true },
    provider_subaccount_id: { type: String, required: true },
    secret_sealed: { type: sealedSchema, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);

schema.index({ account_id: 1, provider_subaccount_id: 1 });

export type SubaccountSecretModel = Model<SubaccountSecretDoc>;

export function registerSubaccountSecretModel(connection: Connection): SubaccountSecretModel {
  return connection.model<SubaccountSecretDoc>('SubaccountSecret', schema, 'subaccount_secrets');
}

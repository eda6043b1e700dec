import { outboxSchemaFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

export const SUBACCOUNT_STATUSES = ['pending', 'active', 'refused', 'blocked', 'inactive'] as const;
export type SubaccountStatus = (typeof SUBACCOUNT_STATUSES)[number];

/**
 * A subaccount (spec §2). Stored first with `provisioning: true` (not listed, not readable), then
 * created at the provider under its own id (idempotent there), then shown: a request that died in
 * between is finished by a repeat of its Idempotency-Key, never made twice at the provider. The
 * credential a provider issues for it is kept sealed by the providers service, never here.
 */
export interface SubaccountDoc extends OutboxFields, OutboxLeaseFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  source_key_id: string;
  provisioning: boolean;
  status: SubaccountStatus;
  status_detail: string;
  provider: string;
  provider_account_id: string;
  provider_subaccount_id: string;
  type: 'individual' | 'company';
  name: string;
  document: string;
  email: string;
  /** As the provider gave them (the adapters mask account numbers); e-mails are masked when shown. */
  details: Record<string, string>;
  /**
   * What a split part names at the provider (Asaas walletId, Pagar.me recipient, Woovi Pix key,
   * Stripe account), from the provider's answer at creation, refreshed on sync and on reports.
   * Internal: never shown by the API.
   */
  split_target: string;
  /** The Pix key given at creation, whole: a withdrawal goes to it (empty when none was given). Never shown. */
  pix_key: { key_type: string; key: string };
  metadata: Record<string, string>;
  /** `<merchant>:<mode>:key:<Idempotency-Key>` when one was sent, else the id (unique either way). */
  idempotency_ref: string;
  request_hash: string;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<SubaccountDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    provisioning: { type: Boolean, required: true },
    status: { type: String, enum: SUBACCOUNT_STATUSES, required: true },
    status_detail: { type: String, default: '' },
    provider: { type: String, required: true },
    provider_account_id: { type: String, required: true },
    provider_subaccount_id: { type: String, default: '' },
    type: { type: String, enum: ['individual', 'company'], required: true },
    name: { type: String, required: true },
    document: { type: String, required: true },
    email: { type: String, default: '' },
    // The provider's and the merchant's own keys and values: free-form by definition.
    details: { type: Schema.Types.Mixed, default: {} },
    split_target: { type: String, default: '' },
    pix_key: {
      key_type: { type: String, default: '' },
      key: { type: String, default: '' },
    },
    metadata: { type: Schema.Types.Mixed, default: {} },
    idempotency_ref: { type: String, required: true },
    request_hash: { type: String, default: '' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
schema.index({ idempotency_ref: 1 }, { unique: true });
schema.index({ merchant_id: 1, mode: 1, provisioning: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, status: 1, _id: -1 });
// Provider reports name the provider's id.
schema.index({ provider_account_id: 1, provider_subaccount_id: 1 });

export type SubaccountModel = Model<SubaccountDoc>;

export function registerSubaccountModel(connection: Connection): SubaccountModel {
  return connection.model<SubaccountDoc>('Subaccount', schema, 'subaccounts');
}

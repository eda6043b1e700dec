import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { PAYOUT_STATUSES, type PayoutStatus } from '../domain/payout-states';

export interface PayoutDestinationDoc {
  /** subaccount: a withdrawal, to the subaccount's own destination (its Pix key saved at creation, or what the provider holds). */
  type: 'account' | 'pix_key' | 'subaccount';
  /** pix_key: the saved destination (pdest_…) and its key, masked: the whole key is read from accounts when sending. */
  destination_id: string;
  key_type: string;
  key_masked: string;
  label: string;
}

/**
 * A payout (spec §2). Inserted before anything is sent, under a unique (merchant, mode,
 * Idempotency-Key); its id is the provider-side idempotency handle, so the transfer is created at
 * most once. Every later change is one conditional write with the status read in its filter.
 * `due_at` schedules the next look at the provider: an uncertain payout (backoff) or one
 * processing without a webhook yet (poll).
 */
export interface PayoutDoc extends OutboxFields, OutboxLeaseFields, DueWorkFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  source_key_id: string;
  status: PayoutStatus;
  /** Cents. A whole-balance withdrawal: what left, once the provider says. */
  amount: number;
  /** Withdrawals: the amount asked (null on payouts). */
  amount_requested: number | null;
  /** Withdrawals: the provider took the whole balance instead of the amount asked (Woovi). */
  whole_balance: boolean;
  fee: number | null;
  provider: string;
  provider_account_id: string;
  provider_transfer_id: string;
  destination: PayoutDestinationDoc;
  /** The provider did not confirm the transfer yet (timeout, error after sending): never sent again. */
  uncertain: boolean;
  /** Looks at the provider since it became uncertain or processing, for the backoff. */
  checks: number;
  description: string;
  metadata: Record<string, string>;
  failure_code: string | null;
  failure_reason: string | null;
  paid_at: Date | null;
  /**
   * The São Paulo day whose daily limit this payout counts against, and whether a failure gave it
   * back. Withdrawals do not count (the subaccount's money is not the merchant's): '' and true.
   */
  limit_day: string;
  limit_released: boolean;
  idempotency_key: string;
  request_hash: string;
  /** The synchronous refusal a replay of the Idempotency-Key answers again (422), when the provider refused at once. */
  refusal: { code: string; message: string; param: string | null } | null;
  subaccount_id: string;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<PayoutDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    status: { type: String, enum: PAYOUT_STATUSES, required: true },
    amount: { type: Number, required: true },
    amount_requested: { type: Number, default: null },
    whole_balance: { type: Boolean, default: false },
    fee: { type: Number, default: null },
    provider: { type: String, required: true },
    provider_account_id: { type: String, required: true },
    provider_transfer_id: { type: String, default: '' },
    destination: {
      type: { type: String, enum: ['account', 'pix_key', 'subaccount'], required: true },
      destination_id: { type: String, default: '' },
      key_type: { type: String, default: '' },
      key_masked: { type: String, default: '' },
      label: { type: String, default: '' },
    },
    uncertain: { type: Boolean, default: false },
    checks: { type: Number, default: 0 },
    description: { type: String, default: '' },
    // The merchant's own keys and values: free-form by definition.
    metadata: { type: Schema.Types.Mixed, default: {} },
    failure_code: { type: String, default: null },
    failure_reason: { type: String, default: null },
    paid_at: { type: Date, default: null },
    limit_day: { type: String, default: '' },
    limit_released: { type: Boolean, default: false },
    idempotency_key: { type: String, required: true },
    request_hash: { type: String, default: '' },
    refusal: { type: Schema.Types.Mixed, default: null },
    subaccount_id: { type: String, default: '' },
    due_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
// One payout per Idempotency-Key of a merchant and mode: the insert decides.
schema.index({ merchant_id: 1, mode: 1, idempotency_key: 1 }, { unique: true });
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, status: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, provider_account_id: 1, _id: -1 });
// A subaccount's withdrawals, newest first.
schema.index({ merchant_id: 1, mode: 1, subaccount_id: 1, _id: -1 });
schema.index({ provider_account_id: 1, provider_transfer_id: 1 });
schema.index({ due_at: 1 });

export type PayoutModel = Model<PayoutDoc>;

export function registerPayoutModel(connection: Connection): PayoutModel {
  return connection.model<PayoutDoc>('Payout', schema, 'payouts');
}

/** The amount a merchant's payouts took from one São Paulo day's limit in one mode. */
export interface PayoutDayDoc {
  /** `<merchant>:<mode>:<YYYY-MM-DD>` */
  _id: string;
  reserved: number;
  created_at: Date;
}

const daySchema = new Schema<PayoutDayDoc>(
  { _id: { type: String, required: true }, reserved: { type: Number, required: true }, created_at: { type: Date, required: true } },
  { versionKey: false },
);

export type PayoutDayModel = Model<PayoutDayDoc>;

export function registerPayoutDayModel(connection: Connection): PayoutDayModel {
  return connection.model<PayoutDayDoc>('PayoutDay', daySchema, 'payout_days');
}

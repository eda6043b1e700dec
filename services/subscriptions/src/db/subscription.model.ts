import { outboxSchemaFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { FREQUENCIES, type Frequency } from '../domain/cycle-schedule';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../domain/subscription-states';

export interface ApprovalDoc {
  qr_code: string;
  qr_code_base64: string;
  url: string;
}

/**
 * A subscription (spec §2): the payer's authorisation at one provider account and its schedule.
 * Every state change and its event (outbox) is one conditional single-document write
 * (SubscriptionStore); the expected status is in the filter.
 */
export interface SubscriptionDoc extends OutboxFields, OutboxLeaseFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  /** The API key that created it: restricted keys see only their own. */
  source_key_id: string;
  status: SubscriptionStatus;
  /** Cents per cycle; null for a variable amount. */
  amount: number | null;
  first_amount: number;
  frequency: Frequency;
  start_date: string;
  end_date: string | null;
  next_charge_date: string | null;
  /** The sequence of the cycle at next_charge_date (cycle 1 is the approval's payment). */
  next_cycle: number;
  description: string;
  retry: boolean;
  customer: { name: string; document: string };
  /** The payer's customer record (cus_…) in payments, known once the first cycle payment linked it. */
  customer_id: string;
  metadata: Record<string, string>;
  tracking: Record<string, string>;
  provider: string;
  provider_account_id: string;
  provider_recurrence_id: string;
  /** Who creates each cycle's charge (the provider's answer at creation). */
  cycles: 'ours' | 'provider';
  /** Present only while pending. */
  approval: ApprovalDoc | null;
  /** The immediate charge the approval pays, for the sandbox approval. */
  approval_charge_id: string;
  idempotency_key: string;
  created_at: Date;
  updated_at: Date;
}

const approvalSchema = new Schema<ApprovalDoc>(
  { qr_code: { type: String, required: true }, qr_code_base64: { type: String, default: '' }, url: { type: String, default: '' } },
  { _id: false },
);

const schema = new Schema<SubscriptionDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    status: { type: String, enum: SUBSCRIPTION_STATUSES, required: true },
    amount: { type: Number, default: null },
    first_amount: { type: Number, required: true },
    frequency: { type: String, enum: FREQUENCIES, required: true },
    start_date: { type: String, required: true },
    end_date: { type: String, default: null },
    next_charge_date: { type: String, default: null },
    next_cycle: { type: Number, default: 2 },
    description: { type: String, default: '' },
    retry: { type: Boolean, required: true },
    customer: { name: { type: String, required: true }, document: { type: String, required: true } },
    customer_id: { type: String, default: '' },
    // The merchant's own keys and values (spec: metadata, tracking): free-form by definition.
    metadata: { type: Schema.Types.Mixed, default: {} },
    tracking: { type: Schema.Types.Mixed, default: {} },
    provider: { type: String, required: true },
    provider_account_id: { type: String, required: true },
    provider_recurrence_id: { type: String, required: true },
    cycles: { type: String, enum: ['ours', 'provider'], required: true },
    approval: { type: approvalSchema, default: null },
    approval_charge_id: { type: String, default: '' },
    idempotency_key: { type: String, default: '' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
// Lists: every query is scoped by merchant and mode and reads newest first by _id (ULID order).
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, status: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, source_key_id: 1, _id: -1 });
// The cycle scheduler: active subscriptions whose next cycle's send window has opened.
schema.index({ status: 1, cycles: 1, next_charge_date: 1 });
schema.index({ status: 1, end_date: 1 });
// Provider reports name the recurrence.
schema.index({ provider_account_id: 1, provider_recurrence_id: 1 });

export type SubscriptionModel = Model<SubscriptionDoc>;

export function registerSubscriptionModel(connection: Connection): SubscriptionModel {
  return connection.model<SubscriptionDoc>('Subscription', schema, 'subscriptions');
}

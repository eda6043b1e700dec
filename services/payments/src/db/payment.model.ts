import type { DueWorkFields, OutboxFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { PaymentStatus } from '../domain/payment-status';
import type { RefundRecord } from '../domain/refunds';

/** A refund lives inside its payment: its changes, the payment's amounts and their events are one write. */
export type RefundDoc = RefundRecord;

export interface AttemptDoc {
  id: string;
  provider_account_id: string;
  provider: string;
  outcome: 'succeeded' | 'declined' | 'failed' | 'uncertain';
  failure_code: string;
  failure_reason: string;
  latency_ms: number;
  provider_payment_id: string;
  created_at: Date;
}

export interface NextActionDoc {
  type: string;
  qr_code: string;
  qr_code_base64: string;
  qr_code_url: string;
  digitable_line: string;
  url: string;
}

export interface CustomerDoc {
  name: string;
  email: string;
  document: string;
  phone: string;
  address: Record<string, string> | null;
  ip: string;
}

export interface EventRefDoc {
  id: string;
  type: string;
  created: number;
}

/**
 * A payment and everything that happens to it. State changes, their events (outbox) and the next
 * due work (expiry) are always written together by one single-document write (see PaymentStore).
 */
export interface PaymentDoc extends OutboxFields, DueWorkFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  source_key_id: string;
  /** The customer record (cus_…) when the buyer's document was given. */
  customer_id?: string;
  method: string;
  status: PaymentStatus;
  amount: number;
  amount_refunded: number;
  currency: 'BRL';
  fee: number;
  net: number;
  description: string;
  customer: CustomerDoc;
  metadata: Record<string, string>;
  tracking: Record<string, string>;
  provider: string;
  provider_account_id: string;
  provider_payment_id: string;
  next_action: NextActionDoc | null;
  failure_code: string;
  failure_reason: string;
  end_to_end_id: string;
  expires_at: Date | null;
  paid_at: Date | null;
  attempts: AttemptDoc[];
  /** Absent on payments stored before refunds existed: read as []. */
  refunds?: RefundDoc[];
  events: EventRefDoc[];
  idempotency_key: string;
  /**
   * Set only on payments created without a method (requires_method): the provider_account_id the
   * merchant forced ('' for none), kept for the charge walk run when the buyer chooses.
   */
  requested_account_id?: string;
  /**
   * Card payments: the account's card token, installments and brand as given (a token is not card
   * data: it works only at the account that minted it). Kept so a resolution or a retry sends the
   * provider the same request under the same idempotency key.
   */
  card?: { token: string; installments: number; brand: string };
  /**
   * W3C trace context of the request that created the payment. Changes reported later by the
   * provider (its webhooks) are applied in this trace, so a payment's whole life, through to the
   * webhook deliveries of its events, is one trace (the provider's request is linked to it).
   */
  trace?: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<PaymentDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, required: true },
    source_key_id: { type: String, default: '' },
    customer_id: { type: String },
    method: { type: String, default: '' },
    status: { type: String, required: true },
    amount: { type: Number, required: true },
    amount_refunded: { type: Number, default: 0 },
    currency: { type: String, default: 'BRL' },
    fee: { type: Number, default: 0 },
    net: { type: Number, default: 0 },
    description: { type: String, default: '' },
    customer: { type: Schema.Types.Mixed, required: true },
    metadata: { type: Schema.Types.Mixed, default: {} },
    tracking: { type: Schema.Types.Mixed, default: {} },
    provider: { type: String, default: '' },
    provider_account_id: { type: String, default: '' },
    provider_payment_id: { type: String, default: '' },
    next_action: { type: Schema.Types.Mixed, default: null },
    failure_code: { type: String, default: '' },
    failure_reason: { type: String, default: '' },
    end_to_end_id: { type: String, default: '' },
    expires_at: { type: Date, default: null },
    paid_at: { type: Date, default: null },
    attempts: { type: Schema.Types.Mixed, default: [] },
    refunds: { type: Schema.Types.Mixed, default: [] },
    events: { type: Schema.Types.Mixed, default: [] },
    idempotency_key: { type: String, default: '' },
    requested_account_id: { type: String },
    card: { type: Schema.Types.Mixed },
    trace: { type: Schema.Types.Mixed },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    outbox: { type: Schema.Types.Mixed, default: [] },
    outbox_since: { type: Date, default: null },
    due_at: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
// Lists: every query is scoped by merchant and mode and reads newest first by _id (ULID order).
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, status: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, source_key_id: 1, _id: -1 });
// Provider webhooks find their payment by the provider's charge id.
schema.index({ provider_account_id: 1, provider_payment_id: 1 });
// Disputes opened at a provider name the Pix by its end-to-end id (MED).
schema.index({ provider_account_id: 1, end_to_end_id: 1 });
// Idempotent refund replays find their payment by the refund id.
schema.index({ 'refunds.id': 1 });
schema.index({ due_at: 1 });
schema.index({ outbox_since: 1 });

export type PaymentModel = Model<PaymentDoc>;

export function registerPaymentModel(connection: Connection): PaymentModel {
  return connection.model<PaymentDoc>('Payment', schema, 'payments');
}

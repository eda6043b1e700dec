/**
 * Over 300 lines: the payment document is one aggregate (its charge, attempts, refunds, splits,
 * customer, tracking, outbox and due work are written together by single-document writes), so its
 * schema and types stay in one file next to its indexes.
 */
import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment-status';
import type { Attempt } from '../domain/failover-walk';
import { REFUND_STATUSES, type RefundRecord } from '../domain/refunds';

/** A refund lives inside its payment: its changes, the payment's amounts and their events are one write. */
export type RefundDoc = RefundRecord;

/** One try at one provider account (domain/failover-walk.ts), stored with the payment. */
export type AttemptDoc = Attempt;

export interface NextActionDoc {
  type: string;
  qr_code: string;
  qr_code_base64: string;
  qr_code_url: string;
  digitable_line: string;
  url: string;
}

export interface AddressDoc {
  street: string;
  number: string;
  neighborhood: string;
  city: string;
  state: string;
  zip: string;
  complement: string;
}

/** The buyer as the merchant described them on this payment (the record is CustomerDoc, customers). */
export interface PaymentCustomerDoc {
  name: string;
  email: string;
  document: string;
  phone: string;
  address: AddressDoc | null;
  ip: string;
}

/**
 * A buyer's choice of method being charged (payments created without one): claimed by one
 * conditional write, so a double click walks the providers once and cancel or expiry never end a
 * payment half-way through its charge. `until` frees a claim whose holder died.
 */
export interface MethodChoiceDoc {
  id: string;
  method: string;
  until: Date;
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
export interface PaymentDoc extends OutboxFields, OutboxLeaseFields, DueWorkFields {
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
  customer: PaymentCustomerDoc;
  /** Normalized search keys (GET /v1/payments?q=): the document as digits only. */
  search?: { document: string };
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
  card?: { token: string; installments: number; brand: string; id?: string; without_cvc?: boolean };
  /**
   * Parts of the gross for subaccounts (spec §4 split rules), in cents, with what the provider's
   * split names. Fixed at creation (they pin the payment to the subaccounts' connected account);
   * absent on payments without a split.
   */
  splits?: SplitDoc[];
  /**
   * W3C trace context of the request that created the payment. Changes reported later by the
   * provider (its webhooks) are applied in this trace, so a payment's whole life, through to the
   * webhook deliveries of its events, is one trace (the provider's request is linked to it).
   */
  trace?: Record<string, string>;
  /** Set while the buyer's chosen method is being charged (requires_method only). */
  method_choice?: MethodChoiceDoc | null;
  /**
   * Counts the changes of the payment's state (status, refunds, amounts). A change recomputed
   * from a read is written only while the version is still the one read (PaymentStore.changeRefunds).
   * Absent on payments stored before it existed: read as 0, matched as null.
   */
  version?: number;
  /**
   * Cycle payments (Pix Automático): the subscription (sub_…), the cycle's number, the day the
   * payer's bank debits it (YYYY-MM-DD) and the recurrence at the provider (its cycle charges are
   * read through it). Absent on every other payment.
   */
  subscription_id?: string;
  cycle?: number;
  due_date?: string;
  provider_recurrence_id?: string;
  /**
   * Cycle payments: set while one caller is sending the cycle's charge to the provider (until the
   * lease ends), so a repeat of the creation never sends it beside a call still running; null
   * once the charge is recorded, refused, or its send failed and may be resumed.
   */
  cycle_charge_until?: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** One provider try; failed creations keep theirs too (failed-creation.model.ts). */
export const attemptSchema = new Schema<AttemptDoc>(
  {
    id: { type: String, required: true },
    provider_account_id: { type: String, required: true },
    provider: { type: String, required: true },
    outcome: { type: String, enum: ['succeeded', 'declined', 'failed', 'uncertain'], required: true },
    failure_code: { type: String, default: '' },
    failure_reason: { type: String, default: '' },
    latency_ms: { type: Number, required: true },
    provider_payment_id: { type: String, default: '' },
    created_at: { type: Date, required: true },
  },
  { _id: false },
);

const refundSchema = new Schema<RefundDoc>(
  {
    id: { type: String, required: true },
    amount: { type: Number, required: true },
    status: { type: String, enum: REFUND_STATUSES, required: true },
    reason: { type: String, default: '' },
    source: { type: String, enum: ['service', 'provider'], required: true },
    provider_refund_id: { type: String, default: '' },
    failure_code: { type: String, default: '' },
    failure_reason: { type: String, default: '' },
    announced: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { _id: false },
);

const nextActionSchema = new Schema<NextActionDoc>(
  {
    type: { type: String, required: true },
    qr_code: { type: String, default: '' },
    qr_code_base64: { type: String, default: '' },
    qr_code_url: { type: String, default: '' },
    digitable_line: { type: String, default: '' },
    url: { type: String, default: '' },
  },
  { _id: false },
);

const addressSchema = new Schema<AddressDoc>(
  {
    street: { type: String, default: '' },
    number: { type: String, default: '' },
    neighborhood: { type: String, default: '' },
    city: { type: String, default: '' },
    state: { type: String, default: '' },
    zip: { type: String, default: '' },
    complement: { type: String, default: '' },
  },
  { _id: false },
);

const paymentCustomerSchema = new Schema<PaymentCustomerDoc>(
  {
    name: { type: String, default: '' },
    email: { type: String, default: '' },
    document: { type: String, default: '' },
    phone: { type: String, default: '' },
    address: { type: addressSchema, default: null },
    ip: { type: String, default: '' },
  },
  { _id: false },
);

const eventRefSchema = new Schema<EventRefDoc>(
  { id: { type: String, required: true }, type: { type: String, required: true }, created: { type: Number, required: true } },
  { _id: false },
);

export interface SplitDoc {
  subaccount_id: string;
  amount: number;
  split_target: string;
}

const splitSchema = new Schema<SplitDoc>(
  { subaccount_id: { type: String, required: true }, amount: { type: Number, required: true }, split_target: { type: String, required: true } },
  { _id: false },
);

const cardSchema = new Schema<NonNullable<PaymentDoc['card']>>(
  {
    // An account's token, a card fields tok_… ('' for a saved card), or the saved card's id (card_…).
    token: { type: String, default: '' },
    installments: { type: Number, default: 1 },
    brand: { type: String, default: '' },
    id: { type: String },
    without_cvc: { type: Boolean },
  },
  { _id: false },
);

const methodChoiceSchema = new Schema<MethodChoiceDoc>(
  { id: { type: String, required: true }, method: { type: String, required: true }, until: { type: Date, required: true } },
  { _id: false },
);

const schema = new Schema<PaymentDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    customer_id: { type: String },
    method: { type: String, default: '' },
    status: { type: String, enum: PAYMENT_STATUSES, required: true },
    amount: { type: Number, required: true },
    amount_refunded: { type: Number, default: 0 },
    currency: { type: String, enum: ['BRL'], default: 'BRL' },
    fee: { type: Number, default: 0 },
    net: { type: Number, default: 0 },
    description: { type: String, default: '' },
    customer: { type: paymentCustomerSchema, required: true },
    search: { document: { type: String, default: '' } },
    // The merchant's own keys and values (spec: metadata, tracking): free-form by definition.
    metadata: { type: Schema.Types.Mixed, default: {} },
    tracking: { type: Schema.Types.Mixed, default: {} },
    provider: { type: String, default: '' },
    provider_account_id: { type: String, default: '' },
    provider_payment_id: { type: String, default: '' },
    next_action: { type: nextActionSchema, default: null },
    failure_code: { type: String, default: '' },
    failure_reason: { type: String, default: '' },
    end_to_end_id: { type: String, default: '' },
    expires_at: { type: Date, default: null },
    paid_at: { type: Date, default: null },
    attempts: { type: [attemptSchema], default: [] },
    refunds: { type: [refundSchema], default: [] },
    events: { type: [eventRefSchema], default: [] },
    idempotency_key: { type: String, default: '' },
    requested_account_id: { type: String },
    card: { type: cardSchema },
    splits: { type: [splitSchema], default: undefined },
    method_choice: { type: methodChoiceSchema, default: null },
    // W3C trace headers of the creating request: free-form by definition.
    trace: { type: Schema.Types.Mixed },
    version: { type: Number, default: 0 },
    subscription_id: { type: String },
    cycle: { type: Number },
    due_date: { type: String },
    provider_recurrence_id: { type: String },
    cycle_charge_until: { type: Date },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    ...outboxSchemaFields,
    due_at: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
// Lists: every query is scoped by merchant and mode and reads newest first by _id (ULID order).
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, status: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, source_key_id: 1, _id: -1 });
// A subscription's cycles (GET /subscriptions/{id}); only cycle payments have the field.
schema.index({ merchant_id: 1, mode: 1, subscription_id: 1, _id: -1 }, { partialFilterExpression: { subscription_id: { $exists: true } } });
// Provider webhooks find their payment by the provider's charge id.
schema.index({ provider_account_id: 1, provider_payment_id: 1 });
// Reconciliation: an account's payments created in a run's period, in order (the missing phase).
schema.index({ provider_account_id: 1, created_at: 1, _id: 1 });
// Disputes opened at a provider name the Pix by its end-to-end id (MED).
schema.index({ provider_account_id: 1, end_to_end_id: 1 });
// A subaccount's split payments (GET /subaccounts/{id}: totals and the recent ones).
schema.index({ merchant_id: 1, mode: 1, 'splits.subaccount_id': 1, _id: -1 }, { partialFilterExpression: { splits: { $exists: true } } });
// Idempotent refund replays find their payment by the refund id.
schema.index({ 'refunds.id': 1 });
// Search by the buyer's document (q=), within the merchant's payments.
schema.index({ merchant_id: 1, mode: 1, 'search.document': 1 });
schema.index({ due_at: 1 });
schema.index({ outbox_since: 1 });

export type PaymentModel = Model<PaymentDoc>;

export function registerPaymentModel(connection: Connection): PaymentModel {
  return connection.model<PaymentDoc>('Payment', schema, 'payments');
}

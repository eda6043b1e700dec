import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * sending: the cycle exists here and its payment is being made (payments CreateCyclePayment, which
 * sends the charge or adopts the provider's); scheduled: the payer's bank debits it on due_date;
 * retrying: a debit failed and another attempt is due; paid, failed, canceled: final.
 */
export const CYCLE_STATUSES = ['sending', 'scheduled', 'retrying', 'paid', 'failed', 'canceled'] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

export const OPEN_CYCLE_STATUSES: readonly CycleStatus[] = ['sending', 'scheduled', 'retrying'];

/**
 * One cycle of a subscription, its payment's id chosen before anything is sent. `_id` is
 * `<subscription id>:<sequence>`: the unique insert is what makes a cycle charged at most once,
 * whichever replica, scheduler pass or API request gets there first.
 */
export interface CycleDoc extends OutboxFields, OutboxLeaseFields, DueWorkFields {
  _id: string;
  subscription_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  sequence: number;
  /** YYYY-MM-DD, the debit day. */
  due_date: string;
  /** Cents. */
  amount: number;
  payment_id: string;
  /** The provider's charge once known; set at insert when adopted (approval charge, provider-made cycles). */
  provider_charge_id: string;
  /** Who asked for it: the schedule, the API (POST /subscriptions/{id}/charge), the approval, or the provider itself. */
  origin: 'schedule' | 'api' | 'approval' | 'provider';
  status: CycleStatus;
  /** Debit attempts that failed so far, as the provider reports them. */
  failed_attempts: number;
  next_attempt_date: string | null;
  /**
   * Unique: `<subscription id>:key:<Idempotency-Key>` for a POST /charge that sent one, else the
   * cycle's own `_id` (a partial unique index would say it better, but the local store does not
   * keep partial indexes).
   */
  idempotency_ref: string;
  /** The POST /charge request's canonical hash ('' otherwise): same key, other body = conflict. */
  request_hash: string;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<CycleDoc>(
  {
    _id: { type: String, required: true },
    subscription_id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    sequence: { type: Number, required: true },
    due_date: { type: String, required: true },
    amount: { type: Number, required: true },
    payment_id: { type: String, required: true },
    provider_charge_id: { type: String, default: '' },
    origin: { type: String, enum: ['schedule', 'api', 'approval', 'provider'], required: true },
    status: { type: String, enum: CYCLE_STATUSES, required: true },
    failed_attempts: { type: Number, default: 0 },
    next_attempt_date: { type: String, default: null },
    idempotency_ref: { type: String, required: true },
    request_hash: { type: String, default: '' },
    due_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
schema.index({ subscription_id: 1, sequence: -1 });
schema.index({ payment_id: 1 }, { unique: true });
schema.index({ subscription_id: 1, provider_charge_id: 1 });
schema.index({ idempotency_ref: 1 }, { unique: true });
schema.index({ due_at: 1 });

export type CycleModel = Model<CycleDoc>;

export function registerCycleModel(connection: Connection): CycleModel {
  return connection.model<CycleDoc>('Cycle', schema, 'cycles');
}

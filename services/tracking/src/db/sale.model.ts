import { Schema, type Connection, type Model } from 'mongoose';
import type { OrderStage, Sale } from '../tools/ad-tool';

/**
 * A sale as tracking knows it (one per payment, `_id` = payment id), kept from the payments,
 * refunds and disputes events. `stage` only moves to a higher `stage_rank` (order-stage.ts), by
 * one conditional write; the payment's snapshot (amounts, customer, tracking) is replaced only by
 * a newer one (`snapshot_at`, the payment's updated_at), so late and repeated events change nothing.
 */
export interface SaleDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  method: Sale['method'];
  /** Null while no event has given it a stage (a card payment just created). */
  stage: OrderStage | null;
  /** order-stage.ts rank of `stage`; -1 without one. */
  stage_rank: number;
  amount: number;
  amount_refunded: number;
  fee: number | null;
  net: number | null;
  description: string | null;
  customer: Sale['customer'];
  tracking: Record<string, string>;
  subscription_id: string | null;
  payment_created_at: Date;
  approved_at: Date | null;
  refunded_at: Date | null;
  chargedback_at: Date | null;
  snapshot_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** The buyer as the payment names them (snapshotOf in sales.service.ts: every field, null when absent). */
const customerSchema = new Schema<SaleDoc['customer']>(
  {
    name: { type: String, default: null },
    email: { type: String, default: null },
    phone: { type: String, default: null },
    document: { type: String, default: null },
    ip: { type: String, default: null },
  },
  { _id: false, minimize: false },
);

const schema = new Schema<SaleDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    method: { type: String, default: null },
    stage: { type: String, default: null },
    stage_rank: { type: Number, required: true },
    amount: { type: Number, required: true },
    amount_refunded: { type: Number, default: 0 },
    fee: { type: Number, default: null },
    net: { type: Number, default: null },
    description: { type: String, default: null },
    customer: { type: customerSchema, required: true },
    // The payment's tracking keys (libs/contracts TRACKING_KEYS) and their texts.
    tracking: { type: Map, of: String, default: {} },
    subscription_id: { type: String, default: null },
    payment_created_at: { type: Date, required: true },
    approved_at: { type: Date, default: null },
    refunded_at: { type: Date, default: null },
    chargedback_at: { type: Date, default: null },
    snapshot_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// POST /integrations/{id}/test: the merchant's last approved sale.
schema.index({ merchant_id: 1, approved_at: -1 });
// The buyer's data is kept only as long as a tool could still take the sale (45 days for refunds
// and chargebacks), with a margin: then the store removes it (docs/tracking.md "Retention").
schema.index({ payment_created_at: 1 }, { expireAfterSeconds: 60 * 24 * 60 * 60 });

export type SaleModel = Model<SaleDoc>;

export function registerSaleModel(connection: Connection): SaleModel {
  return connection.model<SaleDoc>('Sale', schema, 'sales');
}

import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { IntegrationKindId, ToolEvent } from '../tools/ad-tool';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'not_sent', 'superseded'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One send of one sale to one integration (dlv_…) and its retries. Unique per (integration,
 * payment, event, test, nonce): a repeated event inserts nothing. Sales' deliveries have nonce ''
 * (one per event); each POST /integrations/{id}/test gets its own nonce, so a sale may be tested
 * again. Due work (`due_at`) while pending; `integration.delivery_failed` waits in the outbox.
 */
export interface DeliveryDoc extends DueWorkFields, OutboxFields, OutboxLeaseFields {
  _id: string;
  merchant_id: string;
  integration_id: string;
  kind: IntegrationKindId;
  payment_id: string;
  /** The sale's mode (the event envelope's mode). */
  mode: 'test' | 'live';
  event: ToolEvent;
  test: boolean;
  nonce: string;
  status: DeliveryStatus;
  reason: string | null;
  reason_text: string | null;
  attempts: number;
  /** When the next attempt is planned (pending), shown to the merchant; `due_at` also holds leases. */
  next_attempt_at: Date | null;
  /**
   * Until when an attempt of this delivery may still be reaching the tool (set when it starts,
   * cleared with its result): the attribution tool's higher stage waits for it, so the tool never
   * gets an order's stages out of order.
   */
  sending_until: Date | null;
  request_summary: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

const schema = new Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    integration_id: { type: String, required: true },
    kind: { type: String, required: true },
    payment_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    event: { type: String, required: true },
    test: { type: Boolean, required: true },
    nonce: { type: String, default: '' },
    status: { type: String, enum: DELIVERY_STATUSES, required: true },
    reason: { type: String, default: null },
    reason_text: { type: String, default: null },
    attempts: { type: Number, default: 0 },
    next_attempt_at: { type: Date, default: null },
    sending_until: { type: Date, default: null },
    request_summary: { type: String, default: null },
    response_status: { type: Number, default: null },
    response_body: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    delivered_at: { type: Date, default: null },
    due_at: { type: Date, default: null },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
schema.index({ integration_id: 1, payment_id: 1, event: 1, test: 1, nonce: 1 }, { unique: true });
// GET /integrations/{id}/deliveries, newest first (optionally one payment's).
schema.index({ integration_id: 1, _id: -1 });
schema.index({ integration_id: 1, payment_id: 1, _id: -1 });
schema.index({ due_at: 1 });
// The send log is kept 90 days (its retries end within two), then removed by the store.
schema.index({ created_at: 1 }, { expireAfterSeconds: 90 * 24 * 60 * 60 });

export type DeliveryModel = Model<DeliveryDoc>;

export function registerDeliveryModel(connection: Connection): DeliveryModel {
  return connection.model<DeliveryDoc>('Delivery', schema, 'deliveries');
}

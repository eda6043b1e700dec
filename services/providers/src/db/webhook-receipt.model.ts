import { outboxSchemaFields, type EventEnvelope, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One accepted provider webhook. `_id` is `<account>:<provider event key>`, so a replayed webhook
 * collides and changes nothing; the resulting internal events ride in the same insert (outbox).
 */
export interface WebhookReceiptDoc extends OutboxFields, OutboxLeaseFields {
  _id: string;
  account_id: string;
  provider: string;
  provider_payment_ids: string[];
  received_at: Date;
}

const schema = new Schema<WebhookReceiptDoc>(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    provider: { type: String, required: true },
    provider_payment_ids: { type: [String], default: [] },
    received_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false },
);
schema.index({ outbox_since: 1 });

export type WebhookReceiptModel = Model<WebhookReceiptDoc>;

export function registerWebhookReceiptModel(connection: Connection): WebhookReceiptModel {
  return connection.model<WebhookReceiptDoc>('WebhookReceipt', schema, 'webhook_receipts');
}

export type { EventEnvelope };

import { Schema, type Connection, type Model } from 'mongoose';

export interface DeliveryAttempt {
  number: number;
  at: Date;
  /** 0 when no HTTP answer came (timeout, refused connection, TLS error). */
  status_code: number;
  latency_ms: number;
  /** Empty on a 2xx. */
  error: string;
  /** Sent because someone asked (POST …/resend), not by the schedule. */
  manual: boolean;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'canceled';

/**
 * One event for one endpoint. Unique per (endpoint, event), so fanning an event out twice (a
 * redelivered message) never makes a second delivery. Due work: `due_at` is when the next try is
 * owed (null when none is).
 */
export interface WebhookDeliveryDoc {
  _id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  merchant_id: string;
  mode: 'test' | 'live';
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  due_at: Date | null;
  /** Retries stop 3 days after this (the first attempt, or the last manual resend). */
  window_start: Date;
  /** The next try was asked for by hand. */
  manual: boolean;
  /**
   * W3C trace context of the event's consumption that queued this delivery: every attempt, on any
   * replica and however late, continues the trace of the change that produced the event.
   */
  trace?: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const attemptSchema = new Schema<DeliveryAttempt>(
  {
    number: { type: Number, required: true },
    at: { type: Date, required: true },
    status_code: { type: Number, required: true },
    latency_ms: { type: Number, required: true },
    error: { type: String, default: '' },
    manual: { type: Boolean, default: false },
  },
  { _id: false },
);

const schema = new Schema<WebhookDeliveryDoc>(
  {
    _id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    event_id: { type: String, required: true },
    event_type: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    status: { type: String, enum: ['pending', 'delivered', 'failed', 'canceled'], required: true },
    attempts: { type: [attemptSchema], default: [] },
    due_at: { type: Date, default: null },
    window_start: { type: Date, required: true },
    manual: { type: Boolean, default: false },
    // W3C trace headers (traceparent, tracestate, vendor keys): free-form by definition.
    trace: { type: Schema.Types.Mixed, default: undefined },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// One delivery per (endpoint, event): a redelivered event's fan-out hits it and queues nothing.
schema.index({ endpoint_id: 1, event_id: 1 }, { unique: true });
// An endpoint's deliveries, newest first (list, with optional status and event filters).
schema.index({ merchant_id: 1, mode: 1, endpoint_id: 1, _id: -1 });
// Due work: the next attempt (DueWorker).
schema.index({ due_at: 1 });

export type WebhookDeliveryModel = Model<WebhookDeliveryDoc>;

export function registerWebhookDeliveryModel(connection: Connection): WebhookDeliveryModel {
  return connection.model<WebhookDeliveryDoc>('WebhookDelivery', schema, 'webhook_deliveries');
}

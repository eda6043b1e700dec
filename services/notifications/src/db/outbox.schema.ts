import type { EventEnvelope } from '@orquestra/platform';
import { Schema, type SchemaDefinition } from 'mongoose';

/** One event waiting in a document's outbox (an EventEnvelope as OutboxRelay publishes it). */
const outboxEntrySchema = new Schema<EventEnvelope>(
  {
    id: { type: String, required: true },
    type: { type: String, required: true },
    created: { type: Number, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source: { type: String, default: null },
    // The public resource of the event: its shape is the event type's (libs/contracts), not one.
    data: { object: { type: Schema.Types.Mixed, required: true } },
    // W3C trace headers (traceparent, tracestate, vendor keys): free-form by definition.
    trace: { type: Schema.Types.Mixed, default: undefined },
  },
  { _id: false, minimize: false },
);

/**
 * The outbox fields of a document whose writes carry their events (OutboxFields and
 * OutboxLeaseFields of libs/platform). OutboxRelay.watch creates the sweeper's index.
 */
export const outboxFields: SchemaDefinition = {
  outbox: { type: [outboxEntrySchema], default: [] },
  outbox_since: { type: Date, default: null },
  outbox_lease: { type: Date, default: null },
};

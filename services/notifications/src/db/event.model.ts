import { Schema, type Connection, type Model } from 'mongoose';

/** One event of the unified log. `_id` is the event id, so storing an event twice is impossible. */
export interface EventDoc {
  _id: string;
  type: string;
  created: number;
  merchant_id: string;
  mode: 'test' | 'live';
  source: string | null;
  resource_id: string;
  /** The payment the event concerns (its own, or that of its refund or dispute); '' when none. */
  payment_id?: string;
  data: { object: Record<string, unknown> };
  received_at: Date;
}

const schema = new Schema<EventDoc>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    created: { type: Number, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source: { type: String, default: null },
    resource_id: { type: String, default: '' },
    payment_id: { type: String, default: '' },
    // The public resource as the event carries it: its shape is the event type's (libs/contracts).
    data: { object: { type: Schema.Types.Mixed, required: true } },
    received_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, resource_id: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, payment_id: 1, _id: -1 });
schema.index({ merchant_id: 1, mode: 1, source: 1, _id: -1 });

export type EventModel = Model<EventDoc>;

export function registerEventModel(connection: Connection): EventModel {
  return connection.model<EventDoc>('Event', schema, 'events');
}

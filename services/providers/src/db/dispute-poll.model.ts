import { outboxSchemaFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/** One document per polled account (collection `dispute_polls`): due work for its next poll. */
export interface DisputePollDoc extends OutboxFields, OutboxLeaseFields {
  /** The provider account id. */
  _id: string;
  provider: string;
  due_at: Date | null;
  /** `<provider dispute id>|<status>` of every dispute seen in the window at the last poll. */
  seen: string[];
  last_polled_at: Date | null;
}

const schema = new Schema<DisputePollDoc>(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true },
    due_at: { type: Date, default: null },
    seen: { type: [String], default: [] },
    last_polled_at: { type: Date, default: null },
    ...outboxSchemaFields,
  },
  { versionKey: false },
);
schema.index({ due_at: 1 });
schema.index({ outbox_since: 1 });

export type DisputePollModel = Model<DisputePollDoc>;

export function registerDisputePollModel(connection: Connection): DisputePollModel {
  return connection.model<DisputePollDoc>('DisputePoll', schema, 'dispute_polls');
}

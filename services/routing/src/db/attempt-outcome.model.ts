import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One provider attempt's outcome, as reported by payments (`internal.payment_attempt.recorded`).
 * Insert-only (the event id is the `_id`, so redeliveries are no-ops); health is aggregated from
 * the recent window on read.
 */
export interface AttemptOutcomeDoc {
  _id: string;
  merchant_id: string;
  account_id: string;
  outcome: string;
  failure_code: string;
  latency_ms: number;
  at: Date;
}

const schema = new Schema<AttemptOutcomeDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    account_id: { type: String, required: true },
    outcome: { type: String, required: true },
    failure_code: { type: String, default: '' },
    latency_ms: { type: Number, default: 0 },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ at: 1 });
schema.index({ merchant_id: 1, at: 1 });

export type AttemptOutcomeModel = Model<AttemptOutcomeDoc>;

export function registerAttemptOutcomeModel(connection: Connection): AttemptOutcomeModel {
  return connection.model<AttemptOutcomeDoc>('AttemptOutcome', schema, 'attempt_outcomes');
}

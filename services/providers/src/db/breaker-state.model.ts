import { Schema, type Connection, type Model } from 'mongoose';

/**
 * The last shared transition of one account's circuit breaker (collection `breaker_states`), kept
 * so that every providers replica opens and closes the same breakers (breakers/shared-breakers.ts).
 */
export interface BreakerStateDoc {
  /** The provider account id. */
  _id: string;
  state: 'open' | 'closed';
  changed_at: Date;
  /** For an open breaker: when its reset timeout ends (a replica that learns of it later opens it only until then). */
  until: Date | null;
  /** The replica whose breaker made the transition. */
  replica: string;
}

const schema = new Schema<BreakerStateDoc>(
  {
    _id: { type: String, required: true },
    state: { type: String, required: true, enum: ['open', 'closed'] },
    changed_at: { type: Date, required: true },
    until: { type: Date, default: null },
    replica: { type: String, required: true },
  },
  { versionKey: false },
);
schema.index({ changed_at: 1 });

export type BreakerStateModel = Model<BreakerStateDoc>;

export function registerBreakerStateModel(connection: Connection): BreakerStateModel {
  return connection.model<BreakerStateDoc>('BreakerState', schema, 'breaker_states');
}

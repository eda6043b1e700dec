import { outboxSchemaFields, type EventEnvelope, type SealedSecret } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';

export interface StoredSecret {
  id: string;
  sealed: SealedSecret;
  created_at: Date;
  /** null for the current secret; after a rotation, when the previous one stops signing. */
  expires_at: Date | null;
}

export type DisabledReason = 'by_request' | 'gone' | 'failing';

/** A merchant's webhook endpoint in one mode. `_id` is `we_<ulid>`. */
export interface WebhookEndpointDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  url: string;
  events: string[];
  only_source: string | null;
  description: string;
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  /** Sealed with WEBHOOK_SECRETS_ENCRYPTION_KEYS; the plain secret is shown once, at creation/rotation. */
  secrets: StoredSecret[];
  /** First failure since the last success; null while deliveries succeed. */
  failing_since: Date | null;
  /**
   * Due work: when a failing endpoint is to be disabled (failing_since + the disable period), even
   * if no delivery fails at that moment (no new events, or every retry window already ended).
   * Null while it is healthy or disabled.
   */
  due_at?: Date | null;
  /**
   * Incremented by every write that changes what the public endpoint object shows. Writes computed
   * from a read (a secret rotation, the `webhook_endpoint.disabled` event's snapshot) expect the
   * version they read, so a concurrent change makes them re-read instead of being overwritten or
   * announced stale. Absent on endpoints written before it existed (read as null).
   */
  version?: number;
  created_at: Date;
  updated_at: Date;
  /** `webhook_endpoint.disabled` events waiting for the relay (see libs/platform outbox). */
  outbox: EventEnvelope[];
  outbox_since: Date | null;
  outbox_lease?: Date | null;
}

const sealedSecretSchema = new Schema<SealedSecret>(
  {
    key_id: { type: String, required: true },
    iv: { type: String, required: true },
    tag: { type: String, required: true },
    data: { type: String, required: true },
  },
  { _id: false },
);

const storedSecretSchema = new Schema<StoredSecret>(
  {
    id: { type: String, required: true },
    sealed: { type: sealedSecretSchema, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, default: null },
  },
  { _id: false },
);

const schema = new Schema<WebhookEndpointDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    url: { type: String, required: true },
    events: { type: [String], required: true },
    only_source: { type: String, default: null },
    description: { type: String, default: '' },
    enabled: { type: Boolean, required: true },
    disabled_reason: { type: String, enum: ['by_request', 'gone', 'failing', null], default: null },
    secrets: { type: [storedSecretSchema], required: true },
    failing_since: { type: Date, default: null },
    due_at: { type: Date, default: null },
    version: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    ...outboxSchemaFields,
  },
  { versionKey: false, minimize: false },
);
// The merchant's endpoints, newest first (list), and the enabled ones each event fans out to.
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
// Due work: the disable schedule (DueWorker).
schema.index({ due_at: 1 });
// The outbox sweeper.
schema.index({ outbox_since: 1 });

export type WebhookEndpointModel = Model<WebhookEndpointDoc>;

export function registerWebhookEndpointModel(connection: Connection): WebhookEndpointModel {
  return connection.model<WebhookEndpointDoc>('WebhookEndpoint', schema, 'webhook_endpoints');
}

import type { EventEnvelope, SealedSecret } from '@orquestra/platform';
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
  created_at: Date;
  updated_at: Date;
  /** `webhook_endpoint.disabled` events waiting for the relay (see libs/platform outbox). */
  outbox: EventEnvelope[];
  outbox_since: Date | null;
}

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
    disabled_reason: { type: String, default: null },
    secrets: { type: Schema.Types.Mixed, required: true },
    failing_since: { type: Date, default: null },
    due_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    outbox: { type: Schema.Types.Mixed, default: [] },
    outbox_since: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
schema.index({ merchant_id: 1, mode: 1, _id: -1 });
schema.index({ due_at: 1 });

export type WebhookEndpointModel = Model<WebhookEndpointDoc>;

export function registerWebhookEndpointModel(connection: Connection): WebhookEndpointModel {
  return connection.model<WebhookEndpointDoc>('WebhookEndpoint', schema, 'webhook_endpoints');
}

/**
 * Event objects as Stripe sends them to webhook endpoints: `{id: "evt_…", object: "event",
 * api_version, created, data: {object, previous_attributes?}, livemode, pending_webhooks, request:
 * {id, idempotency_key}, type}` (docs.stripe.com/api/events/object).
 */
import { newId } from './stripe-ids';

export const API_VERSION = '2025-03-31.basil';

/** The event types the emulator emits; endpoints may also subscribe with `*`. */
export const EMITTED_EVENT_TYPES = [
  'payment_intent.created',
  'payment_intent.requires_action',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.succeeded',
  'charge.failed',
  'charge.refunded',
  'charge.refund.updated',
  'refund.created',
  'refund.updated',
  'refund.failed',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'payout.created',
  'payout.paid',
  'payout.failed',
  // Connected accounts (connect.ts): sent to Connect endpoints only.
  'account.updated',
] as const;

export type EventType = (typeof EMITTED_EVENT_TYPES)[number];

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: boolean;
  /** The connected account an event of a Connect endpoint is about. */
  account?: string;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: EventType;
}

export interface EventCause {
  /** The API request that caused the event, if any (the dashboard/sandbox actions have none). */
  requestId?: string;
  idempotencyKey?: string;
}

export function buildEvent(type: EventType, object: unknown, livemode: boolean, created: number, cause: EventCause = {}, previous?: Record<string, unknown>): StripeEvent {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created,
    data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    livemode,
    pending_webhooks: 0,
    request: { id: cause.requestId ?? null, idempotency_key: cause.idempotencyKey ?? null },
    type,
  };
}

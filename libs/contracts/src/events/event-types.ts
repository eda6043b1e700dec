/**
 * The catalogue of event types the platform emits, named `<resource>.<action>`. Public events are
 * listed by GET /v1/events and delivered to webhook endpoints; internal ones (prefix `internal.`)
 * travel between services only and are never shown to merchants.
 */
export const PUBLIC_EVENT_TYPES = [
  'payment.created',
  'payment.pending',
  'payment.succeeded',
  'payment.failed',
  'payment.canceled',
  'payment.refunded',
  'payment.partially_refunded',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  // Reserved for the capabilities being built (subscriptions, subaccounts, payouts, saved cards):
  // listed now so that endpoints can subscribe to them and docs/events.md is complete.
  'subscription.created',
  'subscription.activated',
  'subscription.updated',
  'subscription.canceled',
  'subscription.refused',
  'subscription.expired',
  'subscription.cycle_scheduled',
  'subscription.cycle_failed',
  'subaccount.created',
  'subaccount.updated',
  'payout.created',
  'payout.processing',
  'payout.uncertain',
  'payout.paid',
  'payout.failed',
  'payout.canceled',
  'card.created',
  'card.updated',
  'card.deleted',
  // Emitted by notifications itself when it disables a failing endpoint.
  'webhook_endpoint.disabled',
  // Emitted by tracking when a sale could not be delivered to an ad tool (refused, or retries ran out).
  'integration.delivery_failed',
  // Emitted by payments when a reconciliation run ends (completed, or failed for good).
  'reconciliation_run.completed',
] as const;

export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number];

/** Provider-side charge changed (webhook or sync); published by providers, consumed by payments. */
export const PROVIDER_CHARGE_UPDATED = 'internal.provider_charge.updated' as const;

export function isPublicEventType(type: string): type is PublicEventType {
  return (PUBLIC_EVENT_TYPES as readonly string[]).includes(type);
}

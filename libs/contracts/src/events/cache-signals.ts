import { z } from 'zod';

/**
 * Signals that a cached look-up changed, broadcast to every replica of the services that cache it
 * (EventBus.subscribe; docs/decisions.md "Caches"). They carry no state: a receiver drops what it
 * cached and reads again. Published straight to the bus after the write (not through an outbox):
 * one lost in a crash is made good by the caches' time-to-live.
 */

/**
 * A provider account was connected or changed (name, priority, enabled, fees), or its circuit
 * breaker changed state. Published by providers; routing drops the merchant's cached accounts (all
 * merchants' for a breaker change, which providers knows by account only: `merchant_id` '').
 */
export const PROVIDER_ACCOUNTS_CHANGED = 'internal.provider_accounts.changed' as const;

export const providerAccountsChangedSchema = z.object({
  account_id: z.string(),
  reason: z.enum(['connected', 'updated', 'breaker']),
});

export type ProviderAccountsChanged = z.infer<typeof providerAccountsChangedSchema>;

/** A merchant's routing rules changed (created, updated, deleted, reordered). Published by routing for its own replicas. */
export const ROUTING_RULES_CHANGED = 'internal.routing_rules.changed' as const;

/**
 * A merchant's webhook endpoints changed (created, updated, enabled or disabled, deleted, secret
 * rotated). Published by notifications for its own replicas, which cache each merchant's enabled
 * endpoints for the fan-out of every event.
 */
export const WEBHOOK_ENDPOINTS_CHANGED = 'internal.webhook_endpoints.changed' as const;

/**
 * An API key was revoked. Published by accounts after the revocation is stored; every gateway
 * replica drops its cached answer for `key_id`, so the key fails at once everywhere.
 */
export const API_KEYS_CHANGED = 'internal.api_keys.changed' as const;

export const apiKeysChangedSchema = z.object({
  key_id: z.string(),
  reason: z.enum(['revoked']),
});

export type ApiKeysChanged = z.infer<typeof apiKeysChangedSchema>;

/**
 * A merchant's ad-tool integrations changed (created, updated, deleted). Published by tracking for
 * its own replicas, which cache each merchant's enabled integrations for every sale event (and
 * skip sales of merchants without any). Confirmed by the broker before the change is answered.
 */
export const INTEGRATIONS_CHANGED = 'internal.integrations.changed' as const;

/**
 * A providers replica's circuit breaker for an account opened (the provider keeps failing) or
 * closed (its recovery trial succeeded). Broadcast to every providers replica, which applies it to
 * its own breaker of that account, so all replicas refuse (and routing, reading any of them, skips)
 * the same accounts within the broker's delay. Half-open is each replica's own trial and is not
 * shared. The transition is also kept in providers' `breaker_states` collection, which replicas
 * read every few seconds and at start (a lost signal or a replica started later catches up).
 */
export const PROVIDER_BREAKERS_CHANGED = 'internal.provider_breakers.changed' as const;

export const providerBreakersChangedSchema = z.object({
  account_id: z.string().min(1),
  state: z.enum(['open', 'closed']),
  /** When the transition happened (ISO 8601): of two transitions of an account, the later wins. */
  changed_at: z.string().datetime(),
  /** The replica whose breaker changed: it ignores its own signal. */
  replica: z.string().min(1),
});

export type ProviderBreakersChanged = z.infer<typeof providerBreakersChangedSchema>;

import { matchesAnyPattern } from './event-type-pattern';

/** What matching needs of an endpoint and of an event. */
export interface MatchableEndpoint {
  merchant_id: string;
  mode: 'test' | 'live';
  enabled: boolean;
  events: readonly string[];
  /** `key:<key_id>`, or null for every source. */
  only_source: string | null;
}

export interface MatchableEvent {
  type: string;
  merchant_id: string;
  mode: 'test' | 'live';
  /** Id of the API key that created the resource, when one did. */
  source: string | null;
}

/** The key id an `only_source` value names (`key:key_01…` → `key_01…`). */
export function onlySourceKeyId(onlySource: string | null): string | null {
  return onlySource?.startsWith('key:') ? onlySource.slice(4) : null;
}

/**
 * Whether an event goes to an endpoint (spec §6 rules 1 and 2): same merchant and mode, endpoint
 * enabled, type subscribed, and with only_source only events whose source is that key.
 */
export function endpointWantsEvent(endpoint: MatchableEndpoint, event: MatchableEvent): boolean {
  if (!endpoint.enabled) return false;
  if (endpoint.merchant_id !== event.merchant_id || endpoint.mode !== event.mode) return false;
  if (!matchesAnyPattern(endpoint.events, event.type)) return false;
  const keyId = onlySourceKeyId(endpoint.only_source);
  return keyId === null || event.source === keyId;
}

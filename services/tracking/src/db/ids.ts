import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/**
 * Tracking's own ids, shaped like the platform's (`<prefix>_<ulid>` in lower case, sorting by
 * creation time, so "newest first" is a scan on `_id`): itg_ for integrations, dlv_ for deliveries.
 */
export function trackingId(prefix: 'itg' | 'dlv', now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now).toLowerCase()}`;
}

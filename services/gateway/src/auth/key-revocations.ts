import { API_KEYS_CHANGED, apiKeysChangedSchema } from '@orquestra/contracts';
import type { EventBus, Logger } from '@orquestra/platform';

/**
 * API key revocations as they reach this gateway replica: accounts broadcasts
 * `internal.api_keys.changed` after each revocation (EventBus.subscribe: every replica gets it).
 * While `live` is false (broker unreachable, subscription being bound again) the key cache is not
 * trusted and every request asks accounts (docs/decisions.md "Caches").
 */
export interface KeyRevocations {
  readonly live: boolean;
  /** `onRevoked` for each revoked key id; `onResubscribed` each time the queue is bound (drop everything). */
  listen(onRevoked: (keyId: string) => void, onResubscribed: () => void): void;
}

/** Registers the subscription (bound when the bus connects, again after each reconnect). */
export function subscribeKeyRevocations(bus: EventBus, logger: Logger): KeyRevocations {
  const revoked: Array<(keyId: string) => void> = [];
  const resubscribed: Array<() => void> = [];
  let subscription: { readonly live: boolean } = { live: false };
  void bus
    .subscribe(
    [API_KEYS_CHANGED],
    (event) => {
      const parsed = apiKeysChangedSchema.safeParse(event.data?.object);
      if (!parsed.success) {
        // A signal we cannot read still says a key changed: forget every key rather than guess.
        logger.warn({ event_id: event.id }, 'unreadable api key signal; dropping every cached key');
        for (const listener of resubscribed) listener();
        return;
      }
      for (const listener of revoked) listener(parsed.data.key_id);
    },
    () => {
      for (const listener of resubscribed) listener();
    },
  )
    .then((bound) => (subscription = bound));
  return {
    get live() {
      return subscription.live;
    },
    listen(onRevoked, onResubscribed) {
      revoked.push(onRevoked);
      resubscribed.push(onResubscribed);
    },
  };
}

/**
 * Starts the bus without holding up the gateway: the HTTP edge serves while the broker is away
 * (keys are then read through), and the first connection is retried with backoff.
 */
export function startBusInBackground(bus: EventBus, logger: Logger): void {
  let delayMs = 250;
  const attempt = (): void => {
    bus.start().catch((error: Error) => {
      logger.warn({ err: error.message, retry_in_ms: delayMs }, 'event bus not reachable; API keys are read through until it is');
      const timer = setTimeout(attempt, delayMs);
      timer.unref();
      delayMs = Math.min(delayMs * 2, 5_000);
    });
  };
  attempt();
}

/**
 * The record of an emulator's outbound webhooks, for the control port's
 * `/__control/webhooks/deliveries` and stats: each delivery with every attempt (status or transport
 * error code), its outcome, and counters. A log of what happened: never kept in the state file.
 */

export interface DeliveryAttempt {
  at: string;
  status?: number;
  /** Transport error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …). */
  error?: string;
}

export type DeliveryOutcome = 'pending' | 'delivered' | 'failed';

/** What every delivery record has; each emulator adds what its provider's webhook is about. */
export interface DeliveryRecord {
  /** A sequence number, unless the provider names deliveries itself (Pagar.me's hook ids). */
  id: number | string;
  /** Query strings may carry the receiver's secrets: never recorded. */
  urlWithoutQuery: string;
  attempts: DeliveryAttempt[];
  outcome: DeliveryOutcome;
}

import type { FaultRegistry } from './fault-registry';

const zeroCounters = () => ({ webhooks_sent: 0, webhooks_failed: 0, webhook_attempts: 0 });

/** The URL as deliveries record it: origin and path only. */
export function withoutQuery(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return `${parsed.origin}${parsed.pathname}`;
}

export class DeliveryLog<D extends DeliveryRecord> {
  private readonly deliveries: D[] = [];
  private nextId = 1;
  counters = zeroCounters();

  /** `counted`: which finished deliveries the sent/failed counters count (Efí leaves out receiver checks). */
  constructor(private readonly counted: (delivery: D) => boolean = () => true) {}

  start(about: Omit<D, 'id' | 'attempts' | 'outcome'> & { id?: D['id'] }): D {
    const record = { ...about, id: about.id ?? this.nextId++, attempts: [], outcome: 'pending' } as unknown as D;
    this.deliveries.push(record);
    return record;
  }

  recordAttempt(delivery: D, attempt: DeliveryAttempt): void {
    delivery.attempts.push(attempt);
    this.counters.webhook_attempts += 1;
  }

  finish(delivery: D, outcome: 'delivered' | 'failed'): void {
    delivery.outcome = outcome;
    if (!this.counted(delivery)) return;
    if (outcome === 'delivered') this.counters.webhooks_sent += 1;
    else this.counters.webhooks_failed += 1;
  }

  list(): readonly D[] {
    return this.deliveries;
  }

  pending(): number {
    return this.deliveries.filter((d) => d.outcome === 'pending').length;
  }

  /** Forgets deliveries and counters (control-port reset); ids go on from where they were. */
  clear(): void {
    this.deliveries.length = 0;
    this.counters = zeroCounters();
  }
}

/** What every emulator's `/__control/stats` says about its webhooks and the faults injected on its API. */
export function activityStats<D extends DeliveryRecord>(deliveries: DeliveryLog<D>, ...faults: FaultRegistry[]) {
  return {
    ...deliveries.counters,
    faults_injected: faults.reduce((sum, registry) => sum + registry.injected, 0),
    deliveries_pending: deliveries.pending(),
  };
}

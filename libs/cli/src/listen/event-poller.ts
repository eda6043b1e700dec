import type { Event, Orquestra } from '@orquestra/node';

export interface EventPollerOptions {
  /** Unix seconds: events created before are never forwarded (the moment listen started). */
  sinceSeconds: number;
  /** Types to forward: exact (payment.succeeded), a prefix (payment.*) or *. Empty = all. */
  types: readonly string[];
  /**
   * How far back each poll looks, in seconds. An event's id and `created` are set by the service
   * that produced it, and it reaches the log a moment later, so an event may appear behind one
   * already seen: every poll re-reads this window and a seen-set drops what was forwarded.
   */
  lookbackSeconds?: number;
  now?: () => number;
}

/** Whether `type` matches one of the patterns (exact, `resource.*`, or `*`). */
export function matchesType(type: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))));
}

/**
 * Reads the merchant's event log (GET /v1/events) for what is new since the last poll: each event
 * once, oldest first. The seen-set holds the ids inside the look-back window only.
 */
export class EventPoller {
  private readonly seen = new Map<string, number>();
  private readonly lookback: number;
  private readonly now: () => number;

  constructor(
    private readonly client: Orquestra,
    private readonly options: EventPollerOptions,
  ) {
    this.lookback = options.lookbackSeconds ?? 300;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  async poll(): Promise<Event[]> {
    const windowStart = Math.max(this.options.sinceSeconds, this.now() - this.lookback);
    // One pattern goes to the API as its filter; several are read as one list and matched here.
    const single = this.options.types.length === 1 ? this.options.types[0] : undefined;
    const fresh: Event[] = [];
    for await (const event of this.client.events.listAll({ limit: 100, 'created[gte]': windowStart, ...(single ? { type: single } : {}) })) {
      if (this.seen.has(event.id)) continue;
      this.seen.set(event.id, event.created);
      if (matchesType(event.type, this.options.types)) fresh.push(event);
    }
    for (const [id, created] of this.seen) if (created < windowStart) this.seen.delete(id);
    // Ids are ULIDs: (created, id) is the order the events happened in.
    return fresh.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

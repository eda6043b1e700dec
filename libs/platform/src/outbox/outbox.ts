import { context, propagation } from '@opentelemetry/api';
import type { Collection, Document } from 'mongodb';
import type { Logger } from 'pino';
import type { EventBus, EventEnvelope } from '../bus';
import { LockManager } from '../locks';

/**
 * Fields an aggregate document carries to hold its not-yet-published events. The events are
 * written by the same single-document write as the state change they describe, so a crash can
 * never keep one without the other (ARCHITECTURE.md "Events": no multi-document transactions).
 */
export interface OutboxFields {
  outbox: EventEnvelope[];
  /** Set whenever events are added; null once the outbox is empty. Indexed for the sweeper. */
  outbox_since: Date | null;
}

/**
 * Adds `events` to an update document, next to the state change itself.
 *
 * @example
 * await payments.updateOne({ _id }, withOutbox({ $set: { status: 'canceled' } }, [event]));
 */
/**
 * Events as an outbox stores them: each remembers the trace of the write that produced it, so its
 * later publication (fast path or sweeper, any replica) continues that trace. Every write that puts
 * events in an outbox uses this (withOutbox does).
 */
export function outboxEntries(events: EventEnvelope[]): EventEnvelope[] {
  const trace: Record<string, string> = {};
  propagation.inject(context.active(), trace);
  return Object.keys(trace).length > 0 ? events.map((event) => ({ ...event, trace })) : events;
}

export function withOutbox(
  update: { $set?: Record<string, unknown>; $push?: Record<string, unknown>; [operator: string]: unknown },
  events: EventEnvelope[],
): Document {
  const traced = outboxEntries(events);
  return {
    ...update,
    $push: { ...(update.$push ?? {}), outbox: { $each: traced } },
    $set: { ...(update.$set ?? {}), outbox_since: new Date() },
  };
}

export interface OutboxRelayOptions {
  bus: EventBus;
  locks: LockManager;
  logger: Logger;
  /** How often the sweeper looks for events the fast path did not publish. */
  sweepIntervalMs?: number;
  /** Events younger than this are left to the fast path. */
  sweepMinAgeMs?: number;
}

/**
 * Publishes outbox events to the bus and then removes them from their document.
 *
 * Two paths, one mechanism: `flush(collection, id)` right after a write (the fast path: the event
 * reaches the broker within milliseconds), and a sweeper that finds documents whose events are
 * older than `sweepMinAgeMs` (after a crash, a broker outage, or on another replica). The relay
 * holds the document's lock (the same one every writer of the document takes), so removing
 * published events can never undo a concurrent state change. If a relay dies after publishing and
 * before removing, the event is published again: delivery is at least once; consumers dedupe by id.
 */
export class OutboxRelay {
  private readonly collections: Collection<Document>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private readonly sweepIntervalMs: number;
  private readonly sweepMinAgeMs: number;

  constructor(private readonly options: OutboxRelayOptions) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1_000;
    this.sweepMinAgeMs = options.sweepMinAgeMs ?? 2_000;
  }

  /** Registers a collection whose documents carry OutboxFields. Creates the sweeper's index. */
  async watch(collection: Collection<Document>): Promise<void> {
    await collection.createIndex({ outbox_since: 1 });
    this.collections.push(collection);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Fast path: publish the outbox of one document now. Never throws; the sweeper is the fallback. */
  async flush(collection: Collection<Document>, id: unknown): Promise<number> {
    if (!this.options.bus.connected) return 0;
    try {
      const lock = await this.options.locks.tryAcquire(LockManager.documentLock(collection.collectionName, id), 15_000);
      // Someone else holds the document: they wrote to it and will flush, or the sweeper will.
      if (!lock) return 0;
      try {
        return await this.publishLocked(collection, id);
      } finally {
        await this.options.locks.release(lock);
      }
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox flush failed; the sweeper will retry');
      return 0;
    }
  }

  /** One sweeper pass over every watched collection. Returns how many events were published. */
  async sweep(): Promise<number> {
    if (this.sweeping || !this.options.bus.connected) return 0;
    this.sweeping = true;
    let published = 0;
    try {
      for (const collection of this.collections) {
        const due = await collection
          .find({ outbox_since: { $ne: null, $lte: new Date(Date.now() - this.sweepMinAgeMs) } })
          .sort({ outbox_since: 1 })
          .limit(100)
          .project({ _id: 1 })
          .toArray();
        for (const { _id } of due) published += await this.flush(collection, _id);
      }
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox sweep failed');
    } finally {
      this.sweeping = false;
    }
    return published;
  }

  private async publishLocked(collection: Collection<Document>, id: unknown): Promise<number> {
    const document = await collection.findOne({ _id: id as never });
    const entries = (document?.outbox ?? []) as EventEnvelope[];
    if (!document || entries.length === 0) return 0;
    let published = 0;
    try {
      for (const entry of entries) {
        await this.options.bus.publish(entry);
        published += 1;
      }
    } finally {
      if (published > 0) {
        const remaining = entries.slice(published);
        await collection.updateOne(
          { _id: id as never },
          { $set: { outbox: remaining, outbox_since: remaining.length > 0 ? document.outbox_since : null } },
        );
      }
    }
    return published;
  }

  /** Events waiting in every watched collection, and the age of the oldest (for metrics). */
  async backlog(): Promise<{ documents: number; oldestAgeMs: number }> {
    let documents = 0;
    let oldest: Date | undefined;
    for (const collection of this.collections) {
      documents += await collection.countDocuments({ outbox_since: { $ne: null } });
      const first = await collection.find({ outbox_since: { $ne: null } }).sort({ outbox_since: 1 }).limit(1).next();
      const since = first?.outbox_since as Date | undefined;
      if (since && (!oldest || since < oldest)) oldest = since;
    }
    return { documents, oldestAgeMs: oldest ? Date.now() - oldest.getTime() : 0 };
  }
}

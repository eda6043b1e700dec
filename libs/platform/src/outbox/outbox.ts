import { context, propagation } from '@opentelemetry/api';
import type { Collection, Document } from 'mongodb';
import type { Logger } from 'pino';
import type { EventBus, EventEnvelope } from '../bus';

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
  logger: Logger;
  /** How often the sweeper looks for events the fast path did not publish. */
  sweepIntervalMs?: number;
  /** Events younger than this are left to the fast path. */
  sweepMinAgeMs?: number;
  /** How long one relay may hold a document's outbox before another may take it over. */
  leaseMs?: number;
}

/** The relay's claim on a document's outbox, kept in the document itself. */
export interface OutboxLeaseFields {
  /** Until when one relay is publishing this document's outbox; null or past when free. */
  outbox_lease?: Date | null;
}

/**
 * Publishes outbox events to the bus and then removes them from their document.
 *
 * Two paths, one mechanism: `flush(collection, id)` right after a write (the fast path: the event
 * reaches the broker within milliseconds), and a sweeper that finds documents whose events are
 * older than `sweepMinAgeMs` (after a crash, a broker outage, or on another replica).
 *
 * No lock protocol (ARCHITECTURE.md): a relay claims a document's outbox with one atomic
 * `findOneAndUpdate` that sets a lease (`outbox_lease`) and returns the events to publish; after
 * the broker confirms them it removes exactly those events by id (`$pull`), so events a concurrent
 * writer pushed meanwhile stay, and clears `outbox_since` only while the outbox is empty (the
 * `$size: 0` guard is in the filter). A relay that dies holding a lease leaves the events for
 * whoever claims after the lease ends; an event published but not yet pulled is published again:
 * delivery is at least once, and consumers dedupe by event id.
 */
export class OutboxRelay {
  private readonly collections: Collection<Document>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private active = false;
  private lastScanMs = 0;
  private readonly sweepIntervalMs: number;
  private readonly sweepMinAgeMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: OutboxRelayOptions) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1_000;
    this.sweepMinAgeMs = options.sweepMinAgeMs ?? 2_000;
    this.leaseMs = options.leaseMs ?? 15_000;
  }

  /** Registers a collection whose documents carry OutboxFields. Creates the sweeper's index. */
  async watch(collection: Collection<Document>): Promise<void> {
    await collection.createIndex({ outbox_since: 1 });
    this.collections.push(collection);
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.scheduleSweep(this.sweepIntervalMs);
  }

  stop(): void {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The sweeper's scan finds documents by `outbox_since`: MongoDB serves it from the index, the
   * embedded store by reading every document of every watched collection. So the next sweep waits
   * at least twenty times as long as the last scan took: the sweeper (a fallback: the fast path
   * publishes nearly every event) never costs the store more than a twentieth of its time.
   */
  private scheduleSweep(delayMs: number): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      void this.sweep().finally(() => this.scheduleSweep(Math.min(60_000, Math.max(this.sweepIntervalMs, this.lastScanMs * 20))));
    }, delayMs);
    this.timer.unref();
  }

  /** Fast path: publish the outbox of one document now. Never throws; the sweeper is the fallback. */
  async flush(collection: Collection<Document>, id: unknown): Promise<number> {
    if (!this.options.bus.connected) return 0;
    let published = 0;
    try {
      // Events pushed while this relay published are published by the next round, not left to
      // the sweeper; bounded so a document written non-stop cannot keep one caller here.
      for (let round = 0; round < 5; round++) {
        const claimed = await this.claim(collection, id);
        // Nothing to publish, or another relay holds the outbox (it publishes, or the sweeper will).
        if (!claimed) break;
        const { count, remaining } = await this.publishClaimed(collection, id, claimed);
        published += count;
        if (remaining === 0) break;
      }
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox flush failed; the sweeper will retry');
    }
    return published;
  }

  /**
   * When a lease taken now would end: a writer that publishes the events it writes at once stores
   * the document with `outbox_lease` set to this (the write is the claim) and then calls
   * `publishWritten`. Should it die first, the sweeper publishes them once the lease ends.
   */
  leaseEnd(): Date {
    return new Date(Date.now() + this.leaseMs);
  }

  /**
   * Fast path for a document this process just wrote with `outbox_lease: leaseEnd()` and the
   * events `written` in its outbox: publishes them without a claim (one store command in the
   * common case: the write that empties the outbox), then anything pushed meanwhile by `flush`.
   * Never throws; the sweeper is the fallback.
   */
  async publishWritten(collection: Collection<Document>, id: unknown, written: EventEnvelope[]): Promise<number> {
    try {
      if (!this.options.bus.connected) {
        // The lease would only delay the sweeper: give it up.
        await collection.updateOne({ _id: id as never }, { $set: { outbox_lease: null } });
        return 0;
      }
      const { count, remaining } = await this.publishClaimed(collection, id, written);
      return remaining === 0 ? count : count + (await this.flush(collection, id));
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox publish failed; the sweeper will retry');
      return 0;
    }
  }

  /** One sweeper pass over every watched collection. Returns how many events were published. */
  async sweep(): Promise<number> {
    if (this.sweeping || !this.options.bus.connected) return 0;
    this.sweeping = true;
    let published = 0;
    try {
      let scanMs = 0;
      for (const collection of this.collections) {
        const started = Date.now();
        const due = await collection
          .find({ outbox_since: { $ne: null, $lte: new Date(Date.now() - this.sweepMinAgeMs) } })
          .sort({ outbox_since: 1 })
          .limit(100)
          .project({ _id: 1 })
          .toArray();
        scanMs += Date.now() - started;
        for (const { _id } of due) published += await this.flush(collection, _id);
      }
      this.lastScanMs = scanMs;
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox sweep failed');
    } finally {
      this.sweeping = false;
    }
    return published;
  }

  /** Takes the document's outbox for one lease, answering its events (null: empty or taken). */
  private async claim(collection: Collection<Document>, id: unknown): Promise<EventEnvelope[] | null> {
    const now = new Date();
    const document = await collection.findOneAndUpdate(
      { _id: id as never, outbox_since: { $ne: null }, $or: [{ outbox_lease: null }, { outbox_lease: { $lte: now } }] },
      { $set: { outbox_lease: new Date(now.getTime() + this.leaseMs) } },
      { returnDocument: 'after', projection: { outbox: 1 } },
    );
    const entries = (document?.outbox ?? []) as EventEnvelope[];
    if (!document) return null;
    if (entries.length === 0) {
      // outbox_since was left set by a relay that died between its two writes: clear both.
      await collection.updateOne({ _id: id as never, outbox: { $size: 0 } }, { $set: { outbox_since: null, outbox_lease: null } });
      return null;
    }
    return entries;
  }

  private async publishClaimed(
    collection: Collection<Document>,
    id: unknown,
    entries: EventEnvelope[],
  ): Promise<{ count: number; remaining: number }> {
    const sent: string[] = [];
    let failure: unknown;
    try {
      for (const entry of entries) {
        await this.options.bus.publish(entry);
        sent.push(entry.id);
      }
    } catch (error) {
      failure = error;
    }
    // The common case in one write: the broker confirmed every claimed event and nobody pushed one
    // meanwhile (the outbox holds exactly the ids sent), so the outbox is emptied, its sweeper
    // mark cleared and the lease freed together. Otherwise the events confirmed are removed by id
    // (entries pushed meanwhile stay) and the mark is cleared only if that left the outbox empty.
    if (!failure && sent.length > 0) {
      const emptied = await collection.updateOne(
        { _id: id as never, outbox: { $size: sent.length }, 'outbox.id': { $all: sent } },
        { $set: { outbox: [], outbox_since: null, outbox_lease: null } },
      );
      if (emptied.modifiedCount === 1) return { count: sent.length, remaining: 0 };
    }
    const after = await collection.findOneAndUpdate(
      { _id: id as never },
      { $pull: { outbox: { id: { $in: sent } } }, $set: { outbox_lease: null } } as Document,
      { returnDocument: 'after', projection: { outbox: 1 } },
    );
    const remaining = ((after?.outbox ?? []) as EventEnvelope[]).length;
    if (after && remaining === 0) {
      await collection.updateOne({ _id: id as never, outbox: { $size: 0 } }, { $set: { outbox_since: null } });
    }
    if (failure) throw failure;
    return { count: sent.length, remaining };
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

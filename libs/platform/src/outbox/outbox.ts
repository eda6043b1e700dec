import type { Collection, Document } from 'mongodb';
import type { Logger } from 'pino';
import type { EventBus, EventEnvelope } from '../bus';

/**
 * Fields an aggregate document carries to hold its not-yet-published events. The events are
 * written by the same single-document update as the state change they describe, so a crash can
 * never keep one without the other (ARCHITECTURE.md "Events": no multi-document transactions).
 */
export interface OutboxFields {
  outbox: EventEnvelope[];
  /** Set whenever events are added; cleared once the outbox is empty. Indexed for the sweeper. */
  outbox_since: Date | null;
  outbox_lease_until: Date | null;
}

/**
 * Adds `events` to an update document, next to the state change itself.
 *
 * @example
 * await payments.updateOne({ _id, status: 'pending' }, withOutbox({ $set: { status: 'canceled' } }, [event]));
 */
export function withOutbox(
  update: { $set?: Record<string, unknown>; $push?: Record<string, unknown>; [operator: string]: unknown },
  events: EventEnvelope[],
): Document {
  return {
    ...update,
    $push: { ...(update.$push ?? {}), outbox: { $each: events } },
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
  leaseMs?: number;
}

/**
 * Publishes outbox events to the bus and then removes them from their document.
 *
 * Two paths, one mechanism: `flush(collection, id)` right after a write (the fast path: the event
 * reaches the broker within milliseconds), and a sweeper that finds documents whose events are
 * older than `sweepMinAgeMs` (after a crash, a broker outage, or on another replica). A lease keeps
 * two relays from working on one document at once; if a relay dies after publishing and before
 * removing, the event is published again: delivery is at least once and consumers dedupe by id.
 */
export class OutboxRelay {
  private readonly collections: Collection<Document>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
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
    try {
      const now = new Date();
      const claimed = await collection.findOneAndUpdate(
        { _id: id, outbox_since: { $ne: null }, $or: [{ outbox_lease_until: null }, { outbox_lease_until: { $lte: now } }] } as Document,
        { $set: { outbox_lease_until: new Date(now.getTime() + this.leaseMs) } },
        { returnDocument: 'after', projection: { outbox: 1 } },
      );
      if (!claimed) return 0;
      return await this.publishClaimed(collection, claimed);
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox flush failed; sweeper will retry');
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
        for (let i = 0; i < 100; i++) {
          const now = new Date();
          const claimed = await collection.findOneAndUpdate(
            {
              outbox_since: { $ne: null, $lte: new Date(now.getTime() - this.sweepMinAgeMs) },
              $or: [{ outbox_lease_until: null }, { outbox_lease_until: { $lte: now } }],
            } as Document,
            { $set: { outbox_lease_until: new Date(now.getTime() + this.leaseMs) } },
            { returnDocument: 'after', projection: { outbox: 1 }, sort: { outbox_since: 1 } },
          );
          if (!claimed) break;
          published += await this.publishClaimed(collection, claimed);
        }
      }
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'outbox sweep failed');
    } finally {
      this.sweeping = false;
    }
    return published;
  }

  private async publishClaimed(collection: Collection<Document>, claimed: Document): Promise<number> {
    const entries = (claimed.outbox ?? []) as EventEnvelope[];
    const published: EventEnvelope[] = [];
    try {
      for (const entry of entries) {
        await this.options.bus.publish(entry);
        published.push(entry);
      }
    } finally {
      // $pullAll removes exactly the entries read (FerretDB 1.x matches $pull by whole value only).
      await collection.updateOne(
        { _id: claimed._id },
        { $pullAll: { outbox: published }, $set: { outbox_lease_until: null } } as Document,
      );
      await collection.updateOne({ _id: claimed._id, outbox: { $size: 0 } }, { $set: { outbox_since: null } });
    }
    return published.length;
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

import type { Collection, Document, Filter } from 'mongodb';
import type { Logger } from 'pino';

/**
 * Fields a document carries to be "due work" (ARCHITECTURE.md "Scheduled work"): Pix expiry,
 * webhook retries, integration retries, subscription cycles, uncertain payouts. The work lives on
 * the document it concerns, so scheduling it is part of the same single-document write.
 */
export interface DueWorkFields {
  /** When the work is due; null when nothing is scheduled. Indexed. */
  due_at: Date | null;
  /** A worker holds the document until then; an expired lease means the worker died. */
  due_lease_until: Date | null;
  due_attempts: number;
}

export interface DueWorkerOptions<T extends Document> {
  name: string;
  collection: Collection<Document>;
  /** Narrows which due documents this worker handles (e.g. `{ status: 'pending' }`). */
  filter?: Filter<Document>;
  /**
   * Does the work. It must, in its own write, set `due_at` to null or to the next time (or the
   * document will be taken again when the lease ends). Throwing releases nothing: the document is
   * retried after the lease, with `due_attempts` counting the tries.
   */
  handle: (document: T, logger: Logger) => Promise<void>;
  logger: Logger;
  leaseMs?: number;
  pollIntervalMs?: number;
  /** Documents handled at once by one worker. */
  concurrency?: number;
}

/**
 * Claims due documents atomically with a lease (findOneAndUpdate), so any number of replicas can
 * run the same worker: each document is worked by one of them at a time, and a crashed worker's
 * documents are taken over when the lease ends.
 *
 * @example
 * const expiry = new DueWorker({
 *   name: 'payment-expiry', collection: payments, filter: { status: 'pending' }, logger,
 *   handle: async (payment) => expirePayment(payment), // sets due_at: null with status canceled
 * });
 * expiry.start();
 */
export class DueWorker<T extends Document> {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;

  constructor(private readonly options: DueWorkerOptions<T>) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.concurrency = options.concurrency ?? 4;
  }

  static async ensureIndex(collection: Collection<Document>): Promise<void> {
    await collection.createIndex({ due_at: 1 });
  }

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => void this.tick(), this.pollIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** One pass: claims and handles due documents until none is left. Returns how many it handled. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let handled = 0;
    try {
      for (;;) {
        if (this.stopped) break;
        const batch: T[] = [];
        for (let i = 0; i < this.concurrency; i++) {
          const claimed = await this.claim();
          if (!claimed) break;
          batch.push(claimed);
        }
        if (batch.length === 0) break;
        await Promise.all(batch.map((document) => this.run(document)));
        handled += batch.length;
      }
    } catch (error) {
      this.options.logger.warn({ worker: this.options.name, err: (error as Error).message }, 'due-work pass failed');
    } finally {
      this.running = false;
    }
    return handled;
  }

  /** How late the oldest due document is, in ms (0 when nothing is due). */
  async lagMs(): Promise<number> {
    const now = new Date();
    const oldest = await this.options.collection
      .find({ ...(this.options.filter ?? {}), due_at: { $ne: null, $lte: now } } as Filter<Document>)
      .sort({ due_at: 1 })
      .limit(1)
      .next();
    const dueAt = (oldest as { due_at?: Date } | null)?.due_at;
    return dueAt ? now.getTime() - dueAt.getTime() : 0;
  }

  private async claim(): Promise<T | null> {
    const now = new Date();
    return (await this.options.collection.findOneAndUpdate(
      {
        ...(this.options.filter ?? {}),
        due_at: { $ne: null, $lte: now },
        $or: [{ due_lease_until: null }, { due_lease_until: { $lte: now } }],
      } as Filter<Document>,
      { $set: { due_lease_until: new Date(now.getTime() + this.leaseMs) }, $inc: { due_attempts: 1 } } as Document,
      { sort: { due_at: 1 }, returnDocument: 'after' },
    )) as unknown as T | null;
  }

  private async run(document: T): Promise<void> {
    const logger = this.options.logger.child({ worker: this.options.name, doc_id: String(document._id) });
    try {
      await this.options.handle(document, logger);
    } catch (error) {
      logger.warn({ err: (error as Error).message, attempts: document.due_attempts }, 'due work failed; retried after the lease');
    }
  }
}

import type { Collection, Document, Filter } from 'mongodb';
import type { Logger } from 'pino';

/**
 * The field a document carries to be "due work" (ARCHITECTURE.md "Scheduled work"): Pix expiry,
 * webhook retries, integration retries, subscription cycles, uncertain payouts. The due time lives
 * on the document it concerns, so scheduling work is part of the same single-document write as
 * the state change that calls for it.
 */
export interface DueWorkFields {
  /** When the work is due; null when nothing is scheduled. Indexed. */
  due_at: Date | null;
}

export interface DueWorkerOptions<T extends Document> {
  name: string;
  collection: Collection<Document>;
  /** Narrows which due documents this worker handles (e.g. `{ status: 'pending' }`). */
  filter?: Filter<Document>;
  /**
   * Does the work, given the document as claimed (its `due_at` is the claim's lease end). It must,
   * in its own write, set `due_at` to null or to a later time, or the document is taken again when
   * the lease ends. Throwing leaves the lease in place; when it ends, another pass (on any
   * replica) retries.
   */
  handle: (document: T, logger: Logger) => Promise<void>;
  logger: Logger;
  leaseMs?: number;
  pollIntervalMs?: number;
  /** Documents handled at once by one worker. */
  concurrency?: number;
}

/**
 * Runs due work safely on any number of replicas. A document is claimed with one atomic
 * `findOneAndUpdate` whose filter is the due time this pass saw and whose update moves `due_at`
 * to the end of a lease: exactly one replica wins the document, nobody else sees it due until the
 * lease ends, and a crashed replica's work becomes due again by itself. No lock protocol.
 *
 * @example
 * const expiry = new DueWorker({
 *   name: 'payment-expiry', collection: payments, filter: { status: 'pending' }, logger,
 *   handle: async (payment) => expirePayment(payment), // sets due_at: null with status canceled
 * });
 * expiry.start();
 */
export class DueWorker<T extends Document> {
  /** Workers started in this process, for the due-work metrics (ServiceMetrics.watchDueWork). */
  static readonly started = new Set<DueWorker<Document>>();
  /** Told of every document a worker finished ('done') or failed on ('failed'); set by metrics. */
  static onOutcome: ((worker: string, outcome: 'done' | 'failed') => void) | undefined;

  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  /** A kick arrived during a pass: run another one right after it. */
  private rerun = false;
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

  get name(): string {
    return this.options.name;
  }

  start(): void {
    if (this.timer) return;
    DueWorker.started.add(this as unknown as DueWorker<Document>);
    this.stopped = false;
    this.timer = setInterval(() => void this.tick(), this.pollIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    DueWorker.started.delete(this as unknown as DueWorker<Document>);
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /**
   * Asks for a pass now, for work that just became due (e.g. a webhook delivery queued a moment
   * ago), instead of waiting for the next poll. During a pass, another one follows right after it.
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    void this.tick();
  }

  /** One pass over what is due now. Returns how many documents this worker handled. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let handled = 0;
    try {
      const due = (await this.options.collection
        .find({ ...(this.options.filter ?? {}), due_at: { $ne: null, $lte: new Date() } })
        .sort({ due_at: 1 })
        .limit(200)
        .toArray()) as unknown as T[];
      let next = 0;
      const lane = async () => {
        while (!this.stopped && next < due.length) {
          const document = due[next++]!;
          if (await this.claimAndRun(document)) handled += 1;
        }
      };
      await Promise.all(Array.from({ length: this.concurrency }, lane));
    } catch (error) {
      this.options.logger.warn({ worker: this.options.name, err: (error as Error).message }, 'due-work pass failed');
    } finally {
      this.running = false;
      if (this.rerun && !this.stopped) {
        this.rerun = false;
        setImmediate(() => void this.tick());
      }
    }
    return handled;
  }

  /**
   * Works one document now, outside a pass (for work its creator wants done at once, such as the
   * first attempt of a webhook delivery), under the same claim as a pass would take: a pass on any
   * replica running at the same moment skips it. Answers whether this call did the work.
   */
  async runNow(document: T): Promise<boolean> {
    if (this.stopped) return false;
    return this.claimAndRun(document);
  }

  /** How late the oldest due document is, in ms (0 when nothing is due). */
  async lagMs(): Promise<number> {
    const now = new Date();
    const oldest = await this.options.collection
      .find({ ...(this.options.filter ?? {}), due_at: { $ne: null, $lte: now } })
      .sort({ due_at: 1 })
      .limit(1)
      .next();
    const dueAt = (oldest as { due_at?: Date } | null)?.due_at;
    return dueAt ? now.getTime() - dueAt.getTime() : 0;
  }

  private async claimAndRun(document: T): Promise<boolean> {
    const dueAt = (document as { due_at?: Date | null }).due_at;
    if (!dueAt) return false;
    // The claim: still due at the time this pass saw (nobody finished or claimed it since), and
    // now leased to this worker by moving its due time past the lease.
    const current = (await this.options.collection.findOneAndUpdate(
      { ...(this.options.filter ?? {}), _id: document._id, due_at: dueAt },
      { $set: { due_at: new Date(Date.now() + this.leaseMs) } },
      { returnDocument: 'after' },
    )) as T | null;
    if (!current) return false;
    const logger = this.options.logger.child({ worker: this.options.name, doc_id: String(document._id) });
    try {
      await this.options.handle(current, logger);
      DueWorker.onOutcome?.(this.options.name, 'done');
      return true;
    } catch (error) {
      DueWorker.onOutcome?.(this.options.name, 'failed');
      // The lease stays: the work is due again when it ends, which spaces out retries.
      logger.warn({ err: (error as Error).message }, 'due work failed; retried after the lease');
      return false;
    }
  }
}

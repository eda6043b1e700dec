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

export interface DueWorkerOptions<T extends Document, H = never> {
  name: string;
  collection: Collection<Document>;
  /** Narrows which due documents this worker handles (e.g. `{ status: 'pending' }`). */
  filter?: Filter<Document>;
  /**
   * Does the work, given the document as claimed (its `due_at` is the claim's lease end). It must,
   * in its own write, set `due_at` to null or to a later time, or the document is taken again when
   * the lease ends. Throwing leaves the lease in place; when it ends, another pass (on any
   * replica) retries. `hint` is what the caller of `runNow` already holds about the document (for
   * example what it read to create it), so the work need not read it again; passes give none.
   */
  handle: (document: T, logger: Logger, hint?: H) => Promise<void>;
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
export class DueWorker<T extends Document, H = never> {
  /** Workers started in this process, for the due-work metrics (ServiceMetrics.watchDueWork). */
  static readonly started = new Set<DueWorker<Document, unknown>>();
  /** Told of every document a worker finished ('done') or failed on ('failed'); set by metrics. */
  static onOutcome: ((worker: string, outcome: 'done' | 'failed') => void) | undefined;
  /** A pass's scan may cost at most 1/SCAN_BUDGET_FACTOR of the time between passes. */
  static readonly SCAN_BUDGET_FACTOR = 20;
  /** The longest wait between two scans, however slow the scan. */
  static readonly MAX_POLL_INTERVAL_MS = 60_000;
  /** How many future due times found by a scan or a kickAt are remembered for timers. */
  private static readonly MAX_REMEMBERED = 10_000;

  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private running = false;
  private stopped = false;
  /** Between start() and stop(): passes are scheduled by timers. */
  private active = false;
  /** A kick arrived during a pass: run another one right after it. */
  private rerun = false;
  /** Future due times this worker knows of (ascending), each a reason for a pass at that time. */
  private upcoming: number[] = [];
  private lastScanMs = 0;
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;

  constructor(private readonly options: DueWorkerOptions<T, H>) {
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

  /**
   * Time between two scans: the configured interval, stretched so a scan never takes more than a
   * twentieth of it. MongoDB serves the scan from the due_at index and it stays at the interval;
   * the embedded store answers it by reading the whole collection, whose cost grows with it.
   * Work this worker knows of (found by a scan, or announced by kickAt) runs at its due time
   * regardless, so the stretch only delays work another replica scheduled.
   */
  get scanIntervalMs(): number {
    return Math.min(DueWorker.MAX_POLL_INTERVAL_MS, Math.max(this.pollIntervalMs, this.lastScanMs * DueWorker.SCAN_BUDGET_FACTOR));
  }

  start(): void {
    if (this.active) return;
    DueWorker.started.add(this as unknown as DueWorker<Document, unknown>);
    this.stopped = false;
    this.active = true;
    this.scheduleAt(Date.now() + this.pollIntervalMs);
  }

  async stop(): Promise<void> {
    DueWorker.started.delete(this as unknown as DueWorker<Document, unknown>);
    this.stopped = true;
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
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

  /**
   * Announces work this process just scheduled for `dueAt` (a retry, an expiry), so a pass runs
   * then without waiting for a scan to find it.
   */
  kickAt(dueAt: Date): void {
    if (!this.active) return;
    const at = dueAt.getTime();
    if (at <= Date.now()) return this.kick();
    this.remember(at);
    this.scheduleAt(at);
  }

  /** One pass over what is due now. Returns how many documents this worker handled. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let handled = 0;
    let full = false;
    try {
      const started = Date.now();
      // Due now AND the next ones to come, in one scan: the future ones set this worker's timers.
      const found = (await this.options.collection
        .find({ ...(this.options.filter ?? {}), due_at: { $ne: null } })
        .sort({ due_at: 1 })
        .limit(200)
        .project({ _id: 1, due_at: 1 })
        .toArray()) as Array<{ _id: unknown; due_at: Date }>;
      this.lastScanMs = Date.now() - started;
      const now = Date.now();
      const due = found.filter((document) => document.due_at.getTime() <= now);
      full = due.length === found.length && found.length === 200;
      this.upcoming = this.upcoming.filter((at) => at > now);
      for (const document of found) if (document.due_at.getTime() > now) this.remember(document.due_at.getTime());
      let next = 0;
      const lane = async () => {
        while (!this.stopped && next < due.length) {
          const document = due[next++]!;
          if (await this.claimAndRun(document as unknown as T)) handled += 1;
        }
      };
      await Promise.all(Array.from({ length: this.concurrency }, lane));
    } catch (error) {
      this.options.logger.warn({ worker: this.options.name, err: (error as Error).message }, 'due-work pass failed');
    } finally {
      this.running = false;
      if (!this.stopped) {
        if (this.rerun || full) {
          // Kicked during the pass, or more is due than one pass takes: go again at once.
          this.rerun = false;
          setImmediate(() => void this.tick());
        } else if (this.active) {
          this.timerAt = Infinity;
          this.scheduleAt(Math.min(Date.now() + this.scanIntervalMs, this.upcoming[0] ?? Infinity));
        }
      }
    }
    return handled;
  }

  private remember(at: number): void {
    let low = 0;
    let high = this.upcoming.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.upcoming[middle]! < at) low = middle + 1;
      else high = middle;
    }
    if (this.upcoming[low] === at) return;
    this.upcoming.splice(low, 0, at);
    if (this.upcoming.length > DueWorker.MAX_REMEMBERED) this.upcoming.pop();
  }

  /** Runs a pass at `at` unless one is already planned earlier. */
  private scheduleAt(at: number): void {
    if (!this.active || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      if (this.running) this.rerun = true;
      else void this.tick();
    }, Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  /**
   * Works one document now, outside a pass (for work its creator wants done at once, such as the
   * first attempt of a webhook delivery), under the same claim as a pass would take: a pass on any
   * replica running at the same moment skips it. Answers whether this call did the work.
   */
  async runNow(document: T, hint?: H): Promise<boolean> {
    if (this.stopped) return false;
    return this.claimAndRun(document, hint);
  }

  /**
   * When a lease taken now would end: for a document its writer stores already leased (`due_at`
   * set to this) because it will hand it to `runLeased` at once, so no claim is needed. Should the
   * writer die first, the document is due when the lease ends, as after any claim.
   */
  leaseEnd(): Date {
    return new Date(Date.now() + this.leaseMs);
  }

  /**
   * Runs a document its writer stored already leased (`due_at` from `leaseEnd()`), without the
   * claim `runNow` makes: the write that created it was the claim. Same outcome handling as a
   * claimed run (a failure leaves the lease, so it is retried when it ends).
   */
  async runLeased(document: T, hint?: H): Promise<boolean> {
    if (this.stopped) return false;
    return this.run(document, hint);
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

  private async claimAndRun(document: T, hint?: H): Promise<boolean> {
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
    return this.run(current, hint);
  }

  private async run(current: T, hint?: H): Promise<boolean> {
    const logger = this.options.logger.child({ worker: this.options.name, doc_id: String(current._id) });
    try {
      await this.options.handle(current, logger, hint);
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

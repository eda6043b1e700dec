import type { accounts } from '@orquestra/contracts';
import type { Logger } from '@orquestra/platform';

export interface RequestLogRecorderOptions {
  /** Sends one batch (accounts.RecordRequestLogs); a rejection drops that batch. */
  send: (entries: accounts.RequestLogEntry[]) => Promise<unknown>;
  logger: Logger;
  /** Entries waiting at most; past it new ones are dropped (and counted) rather than held in memory. */
  maxQueue?: number;
  /** Entries per RecordRequestLogs call. */
  batchSize?: number;
  /** A batch goes at least this often while entries wait. */
  flushIntervalMs?: number;
  /** Told how many entries were dropped (queue full or a failed send); the metric counts them. */
  onDropped?: (count: number, reason: 'queue_full' | 'send_failed') => void;
}

/**
 * The request log's write path, off the request path: `add` only pushes onto a bounded array;
 * batches go to accounts every `flushIntervalMs` (or as soon as a batch is full), one call in
 * flight at a time. Losing entries is acceptable (a developer aid, not an audit trail), so a
 * failed batch is dropped, never retried, and a full queue drops the newest: the API's latency
 * and memory never depend on accounts being up.
 */
export class RequestLogRecorder {
  private queue: accounts.RequestLogEntry[] = [];
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly maxQueue: number;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private lastWarning = 0;

  constructor(private readonly options: RequestLogRecorderOptions) {
    this.maxQueue = options.maxQueue ?? 10_000;
    this.batchSize = options.batchSize ?? 500;
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushIntervalMs);
    this.timer.unref();
  }

  /** Number of entries waiting (tests, metrics). */
  get pending(): number {
    return this.queue.length;
  }

  add(entry: accounts.RequestLogEntry): void {
    if (this.queue.length >= this.maxQueue) {
      this.options.onDropped?.(1, 'queue_full');
      this.warn('request log queue full: entries dropped');
      return;
    }
    this.queue.push(entry);
    if (this.queue.length >= this.batchSize && !this.inFlight) void this.flush();
  }

  /** Sends what waits, one batch after another; resolves when the queue is empty or a send failed. */
  flush(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.queue.length === 0) return Promise.resolve();
    this.inFlight = this.drain().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Stops the timer and sends what is left (shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      try {
        await this.options.send(batch);
      } catch (error) {
        this.options.onDropped?.(batch.length, 'send_failed');
        this.warn('request log batch not recorded: dropped', error, batch.length);
        return;
      }
    }
  }

  /** At most one warning a minute: a down accounts service must not flood the gateway's log. */
  private warn(message: string, error?: unknown, count?: number): void {
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.options.logger.warn({ err: error, count, pending: this.queue.length }, message);
  }
}

import type { Logger } from 'pino';
import type { HealthBucketDoc, HealthBucketModel } from '../db/health-bucket.model';
import type { HealthView } from './route-planner';

/** Outcomes that say the account worked. A decline is the buyer's bank, not the account. */
const HEALTHY_OUTCOMES = new Set(['succeeded', 'declined']);

/** Width of one counting bucket: the window moves in steps of this. */
export const HEALTH_BUCKET_MS = 10_000;

/**
 * Per-account success rate over a recent window, fed by attempt-outcome events. Outcomes are
 * counted into 10-second buckets per account (one `$inc` upsert each); each routing replica keeps
 * an in-memory view summed from the shared buckets every `refreshMs`, so routing a payment costs no
 * query and a refresh reads (accounts × window / bucket) small documents, not one per attempt.
 */
export class AccountHealth {
  private view = new Map<string, HealthView>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly buckets: HealthBucketModel,
    private readonly logger: Logger,
    private readonly windowMs = 5 * 60_000,
    private readonly refreshMs = 2_000,
  ) {}

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  snapshot(): Map<string, HealthView> {
    return this.view;
  }

  /**
   * Counts one attempt. A redelivered event (the broker delivers at least once) counts twice: a
   * rate over hundreds of attempts tolerates that, and counting exactly once would cost a write
   * per attempt on top of this one.
   */
  async record(outcome: { merchant_id: string; account_id: string; outcome: string; at: Date }): Promise<void> {
    const start = Math.floor(outcome.at.getTime() / HEALTH_BUCKET_MS) * HEALTH_BUCKET_MS;
    await this.buckets.updateOne(
      { _id: `${outcome.account_id}:${start}` },
      {
        $inc: { attempts: 1, successes: HEALTHY_OUTCOMES.has(outcome.outcome) ? 1 : 0 },
        $setOnInsert: { account_id: outcome.account_id, merchant_id: outcome.merchant_id, bucket_start: new Date(start) },
      },
      { upsert: true },
    );
  }

  async refresh(): Promise<void> {
    try {
      const since = new Date(Date.now() - this.windowMs);
      const rows = await this.buckets.find({ bucket_start: { $gte: since } }).lean<HealthBucketDoc[]>();
      const next = new Map<string, HealthView>();
      for (const row of rows) {
        const current = next.get(row.account_id) ?? { attempts: 0, successes: 0 };
        current.attempts += row.attempts;
        current.successes += row.successes;
        next.set(row.account_id, current);
      }
      this.view = next;
      await this.buckets.deleteMany({ bucket_start: { $lt: new Date(Date.now() - 2 * this.windowMs) } });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'account health refresh failed');
    }
  }
}

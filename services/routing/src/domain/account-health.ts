import type { Logger } from 'pino';
import type { AttemptOutcomeModel } from '../db/attempt-outcome.model';
import type { HealthView } from './route-planner';

/** Outcomes that say the account worked. A decline is the buyer's bank, not the account. */
const HEALTHY_OUTCOMES = ['succeeded', 'declined'];

/**
 * Per-account success rate over a recent window, fed by attempt-outcome events. Each routing
 * replica keeps an in-memory view refreshed from the shared store every `refreshMs`, so routing a
 * payment costs no extra query.
 */
export class AccountHealth {
  private view = new Map<string, HealthView>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly outcomes: AttemptOutcomeModel,
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

  async refresh(): Promise<void> {
    try {
      const since = new Date(Date.now() - this.windowMs);
      const rows = await this.outcomes.aggregate<{ _id: { account_id: string; outcome: string }; n: number }>([
        { $match: { at: { $gte: since } } },
        { $group: { _id: { account_id: '$account_id', outcome: '$outcome' }, n: { $sum: 1 } } },
      ]);
      const next = new Map<string, HealthView>();
      for (const row of rows) {
        const current = next.get(row._id.account_id) ?? { attempts: 0, successes: 0 };
        current.attempts += row.n;
        if (HEALTHY_OUTCOMES.includes(row._id.outcome)) current.successes += row.n;
        next.set(row._id.account_id, current);
      }
      this.view = next;
      // Forget outcomes older than the window (insert-only log; nothing else reads them).
      await this.outcomes.deleteMany({ at: { $lt: new Date(Date.now() - 2 * this.windowMs) } });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'account health refresh failed');
    }
  }
}

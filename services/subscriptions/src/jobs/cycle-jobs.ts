import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { CycleDoc } from '../db/cycle.model';
import type { CycleStore } from '../db/cycle.store';
import type { CyclesService } from '../use-cases/cycles.service';
import type { ScheduleMetrics } from './schedule-metrics';

/**
 * The sender: cycles inserted but not yet made a payment (`sending`), due at once or when the
 * lease of a sender that died runs out. The DueWorker's atomic claim keeps two replicas from
 * sending one cycle at the same time; the payment id chosen at insert keeps a late repeat from
 * charging twice.
 */
export function cycleSender(cycles: CycleStore, service: CyclesService, logger: Logger, leaseMs: number): DueWorker<CycleDoc> {
  return new DueWorker<CycleDoc>({
    name: 'cycle-sender',
    collection: cycles.collection,
    filter: { status: 'sending' },
    leaseMs,
    logger,
    handle: async (claimed) => {
      // The claim answered the document with its lease; send reads the subscription itself.
      await service.send(claimed);
    },
  });
}

/**
 * The schedule: a pass every `intervalMs` over subscriptions whose next cycle may be sent. Its
 * dates are business days of the service's clock, not instants, so it polls rather than sleeping
 * until a due time. Passes never overlap; replicas may pass at once (the cycle insert decides).
 */
export class CycleScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly service: CyclesService,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly metrics?: ScheduleMetrics,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.pass(), this.intervalMs);
    this.timer.unref();
  }

  async pass(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.service
      .schedulePass()
      .then((sent) => {
        this.metrics?.pass('ok', sent);
        if (sent > 0) this.logger.info({ sent }, 'cycles sent');
      })
      .catch((error: unknown) => {
        this.metrics?.pass('failed');
        this.logger.warn({ err: (error as Error).message }, 'cycle schedule pass failed');
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}

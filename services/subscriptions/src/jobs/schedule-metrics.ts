import { Counter, type Registry } from 'prom-client';

/**
 * The cycle schedule's own metrics, per replica: passes run (every replica passes on its own
 * timer, so each replica's count shows its schedule is alive) and cycles this replica's passes
 * inserted. A cycle is inserted once whoever passes first (its id is `<subscription>:<sequence>`),
 * so the sum over the replicas is the number of cycles the schedule made.
 */
export class ScheduleMetrics {
  private readonly passes: Counter<'outcome'>;
  private readonly scheduled: Counter;

  constructor(registry: Registry) {
    this.passes = new Counter({
      name: 'orquestra_subscription_schedule_passes_total',
      help: 'Cycle schedule passes of this replica, by outcome (ok, failed).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.scheduled = new Counter({
      name: 'orquestra_subscription_cycles_scheduled_total',
      help: "Cycles inserted by this replica's schedule passes (each cycle once, whichever replica passed first).",
      registers: [registry],
    });
  }

  pass(outcome: 'ok' | 'failed', scheduled = 0): void {
    this.passes.inc({ outcome });
    if (scheduled > 0) this.scheduled.inc(scheduled);
  }
}

import pino from 'pino';
import { Registry } from 'prom-client';
import type { CyclesService } from '../use-cases/cycles.service';
import { CycleScheduler } from './cycle-jobs';
import { ScheduleMetrics } from './schedule-metrics';

/** Prometheus text of one registry, reduced to `name{labels} value` lines of the schedule's metrics. */
async function scheduleLines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith('orquestra_subscription_'));
}

describe('CycleScheduler metrics', () => {
  it('counts every pass by outcome and the cycles its passes inserted', async () => {
    const answers: Array<number | Error> = [2, 0, new Error('store unreachable'), 1];
    const service = {
      schedulePass: async () => {
        const next = answers.shift();
        if (next instanceof Error) throw next;
        return next ?? 0;
      },
    } as unknown as CyclesService;
    const registry = new Registry();
    const scheduler = new CycleScheduler(service, 60_000, pino({ level: 'silent' }), new ScheduleMetrics(registry));
    for (let i = 0; i < 4; i++) await scheduler.pass();
    expect(await scheduleLines(registry)).toEqual([
      'orquestra_subscription_schedule_passes_total{outcome="ok"} 3',
      'orquestra_subscription_schedule_passes_total{outcome="failed"} 1',
      'orquestra_subscription_cycles_scheduled_total 3',
    ]);
  });
});

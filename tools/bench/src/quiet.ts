/**
 * Waits until the watched processes are (nearly) idle: after a phase, the stack may still be
 * working off what the load left behind (outbox relay, event consumers, due work), which would
 * otherwise be counted against the next phase. How long that takes is itself worth knowing.
 */
import { CLOCK_TICKS, readCpuTicks } from './proc-stats';

export async function waitUntilQuiet(pids: number[], options: { thresholdPercent: number; windowMs: number; maxMs: number }): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = Date.now();
  const ticks = () => pids.reduce((sum, pid) => sum + (readCpuTicks(pid) ?? 0), 0);
  for (;;) {
    const before = ticks();
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    const percent = ((ticks() - before) / CLOCK_TICKS / (options.windowMs / 1000)) * 100;
    if (percent < options.thresholdPercent) return { waitedMs: Date.now() - started, quiet: true };
    if (Date.now() - started > options.maxMs) return { waitedMs: Date.now() - started, quiet: false };
  }
}

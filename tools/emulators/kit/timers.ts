/**
 * One-shot background work an emulator schedules (a refund settling after a while, as at the real
 * provider) and drops all at once on stop. Unref'd: a pending settlement never keeps a test or the
 * process alive.
 */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.pending.add(timer);
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}

/**
 * An emulator's clock: the real (or given) time plus an offset that tests move forward through
 * the control port (`POST /__control/clock`), so that due dates, expiries and recurring cycles
 * happen when a test says, not after days of waiting. It never goes back: the records an emulator
 * keeps (histories, attempts, settlements) assume time only moves forward.
 */
export class EmulatorClock {
  private offsetMs = 0;

  constructor(private readonly base: () => Date) {}

  readonly now = (): Date => new Date(this.base().getTime() + this.offsetMs);

  /** Moves forward by `ms` (≥ 0). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }

  /** Moves forward to `at`; an instant before now is refused. */
  setTo(at: Date): void {
    this.advance(at.getTime() - this.now().getTime());
  }

  /** How far ahead of the base time the clock is (the state file keeps it). */
  offset(): number {
    return this.offsetMs;
  }

  restoreOffset(offsetMs: number | undefined): void {
    this.offsetMs = typeof offsetMs === 'number' && offsetMs > 0 ? offsetMs : 0;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

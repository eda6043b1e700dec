/**
 * Expires charges on time, so CHARGE_EXPIRED webhooks go out without anyone reading the charge.
 * (Reads expire a charge too, lazily, in EmulatorState.expireIfDue.)
 */
import type { EmulatorState, StoredCharge } from './emulator-state';

/** setTimeout's ceiling (~24.8 days): longer expirations are left to the lazy path. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ExpiryScheduler {
  private readonly timers = new Map<StoredCharge, NodeJS.Timeout>();

  constructor(private readonly state: EmulatorState) {}

  schedule(charge: StoredCharge): void {
    const ms = this.state.expiresAt(charge).getTime() - this.state.now().getTime();
    if (ms > MAX_TIMER_MS) return;
    const timer = setTimeout(() => {
      this.timers.delete(charge);
      this.state.expireIfDue(charge);
    }, Math.max(0, ms) + 5);
    timer.unref();
    this.timers.set(charge, timer);
  }

  cancel(charge: StoredCharge): void {
    clearTimeout(this.timers.get(charge));
    this.timers.delete(charge);
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * What every emulator's state holds besides its provider's records: the clock, the faults injected
 * on its API port, and the log of its webhook deliveries (neither kept in the state file).
 */
import { EmulatorClock } from './clock';
import { DeliveryLog, type DeliveryRecord } from './delivery-log';
import { FaultRegistry } from './fault-registry';

export abstract class EmulatorStateBase<D extends DeliveryRecord> {
  /** Faults injected on the API port, per caller or global. */
  readonly faults = new FaultRegistry();
  readonly deliveries: DeliveryLog<D>;
  /** The emulator's time: `baseNow` plus what tests moved it forward by (control port). */
  readonly clock: EmulatorClock;
  readonly now: () => Date;

  /** `countedDeliveries`: which deliveries the sent/failed counters count (DeliveryLog). */
  constructor(baseNow: () => Date, countedDeliveries?: (delivery: D) => boolean) {
    this.deliveries = new DeliveryLog<D>(countedDeliveries);
    this.clock = new EmulatorClock(baseNow);
    this.now = this.clock.now;
  }

  listDeliveries(): readonly D[] {
    return this.deliveries.list();
  }
}

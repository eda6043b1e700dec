/**
 * What every emulator's state holds besides its provider's records: the clock, the faults injected
 * on its API port, and the log of its webhook deliveries (neither kept in the state file).
 */
import { DeliveryLog, type DeliveryRecord } from './delivery-log';
import { FaultRegistry } from './fault-registry';

export abstract class EmulatorStateBase<D extends DeliveryRecord> {
  /** Faults injected on the API port, per caller or global. */
  readonly faults = new FaultRegistry();
  readonly deliveries: DeliveryLog<D>;

  /** `countedDeliveries`: which deliveries the sent/failed counters count (DeliveryLog). */
  constructor(
    readonly now: () => Date,
    countedDeliveries?: (delivery: D) => boolean,
  ) {
    this.deliveries = new DeliveryLog<D>(countedDeliveries);
  }

  listDeliveries(): readonly D[] {
    return this.deliveries.list();
  }
}

import { newEvent, type EventEnvelope } from '@orquestra/platform';
import type { CycleDoc } from './cycle.model';

/** `subscription.cycle_scheduled` / `_failed`: data.object is the cycle's public payment object. */
export function cycleEvent(type: 'subscription.cycle_scheduled' | 'subscription.cycle_failed', cycle: Pick<CycleDoc, 'merchant_id' | 'mode'>, payment: Record<string, unknown>, sourceKeyId: string): EventEnvelope {
  return newEvent(type, { merchant_id: cycle.merchant_id, mode: cycle.mode, source_key_id: sourceKeyId }, payment);
}

import type { EventEnvelope } from '../bus/event-envelope';
import { newId } from '../ids';

/** A minimal event of `type` for tests of the bus and the outbox (merchant acct_1, test mode). */
export function testEnvelope(type: string, object: Record<string, unknown> = {}): EventEnvelope {
  return {
    id: newId('event'),
    type,
    created: Math.floor(Date.now() / 1000),
    merchant_id: 'acct_1',
    mode: 'test',
    source: null,
    data: { object },
  };
}

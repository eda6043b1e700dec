import type { EventEnvelope } from '../bus/event-envelope';
import { newId } from '../ids';

/** A minimal event of `type` for tests of the bus itself (merchant acct_1, test mode, empty object). */
export function testEnvelope(type: string): EventEnvelope {
  return {
    id: newId('event'),
    type,
    created: Math.floor(Date.now() / 1000),
    merchant_id: 'acct_1',
    mode: 'test',
    source: null,
    data: { object: {} },
  };
}

import { newEvent, toPublicEvent } from './event-envelope';

describe('event envelope', () => {
  it('builds the envelope of a resource: evt_ id, unix seconds, owner, creating key', () => {
    const before = Math.floor(Date.now() / 1000);
    const event = newEvent('payout.created', { merchant_id: 'acct_1', mode: 'live', source_key_id: 'key_1' }, { id: 'po_1' });
    expect(event.id).toMatch(/^evt_/);
    expect(event.created).toBeGreaterThanOrEqual(before);
    expect(event.created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(event).toEqual({ id: event.id, type: 'payout.created', created: event.created, merchant_id: 'acct_1', mode: 'live', source: 'key_1', data: { object: { id: 'po_1' } } });
    // The JSON on the wire keeps the documented field order.
    expect(Object.keys(event)).toEqual(['id', 'type', 'created', 'merchant_id', 'mode', 'source', 'data']);
  });

  it.each([[''], [null], [undefined]])('has a null source when no key created the resource (%j)', (key) => {
    expect(newEvent('card.deleted', { merchant_id: 'acct_1', mode: 'test', source_key_id: key }, {}).source).toBeNull();
  });

  it('shows the public event without merchant, mode or source', () => {
    const event = newEvent('payment.created', { merchant_id: 'acct_1', mode: 'test' }, { id: 'pay_1' });
    expect(toPublicEvent(event)).toEqual({ id: event.id, object: 'event', type: 'payment.created', created: event.created, data: { object: { id: 'pay_1' } } });
  });
});

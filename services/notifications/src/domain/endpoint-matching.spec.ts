import { endpointWantsEvent, onlySourceKeyId, type MatchableEndpoint, type MatchableEvent } from './endpoint-matching';

const endpoint: MatchableEndpoint = { merchant_id: 'acct_1', mode: 'test', enabled: true, events: ['payment.*'], only_source: null };
const event: MatchableEvent = { type: 'payment.succeeded', merchant_id: 'acct_1', mode: 'test', source: 'key_bot' };

describe('endpointWantsEvent', () => {
  it('takes subscribed events of the same merchant and mode', () => {
    expect(endpointWantsEvent(endpoint, event)).toBe(true);
    expect(endpointWantsEvent(endpoint, { ...event, merchant_id: 'acct_2' })).toBe(false);
    expect(endpointWantsEvent(endpoint, { ...event, mode: 'live' })).toBe(false);
    expect(endpointWantsEvent(endpoint, { ...event, type: 'refund.created' })).toBe(false);
    expect(endpointWantsEvent({ ...endpoint, enabled: false }, event)).toBe(false);
  });

  it('with only_source takes only events whose source is that key', () => {
    const scoped = { ...endpoint, only_source: 'key:key_bot' };
    expect(onlySourceKeyId('key:key_bot')).toBe('key_bot');
    expect(endpointWantsEvent(scoped, event)).toBe(true);
    expect(endpointWantsEvent(scoped, { ...event, source: 'key_other' })).toBe(false);
    expect(endpointWantsEvent(scoped, { ...event, source: null })).toBe(false);
  });
});

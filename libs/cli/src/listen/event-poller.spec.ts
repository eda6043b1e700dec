import { Orquestra, type Event } from '@orquestra/node';
import { startServer } from '../testing/api-server';
import { EventPoller, matchesType } from './event-poller';

/** A stand-in for GET /v1/events with the API's semantics: newest first by id, created[gte], one type pattern, cursor. */
function eventsApi(log: Event[]) {
  return startServer(({ path, query }) => {
    if (path !== '/v1/events') return { status: 404, body: { error: { type: 'invalid_request_error', code: 'not_found', message: 'não', param: null } } };
    const limit = Number(query.get('limit') ?? 10);
    const gte = Number(query.get('created[gte]') ?? 0);
    const type = query.get('type');
    const after = query.get('starting_after');
    const matching = log
      .filter((e) => e.created >= gte && (!type || matchesType(e.type, [type])) && (!after || e.id < after))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    return { status: 200, body: { object: 'list', data: matching.slice(0, limit), has_more: matching.length > limit } };
  });
}

const event = (id: string, type: string, created: number): Event => ({ id, object: 'event', type, created, data: { object: { id: `obj_${id}` } } });

describe('EventPoller', () => {
  it('reads only what happened since listen started, each event once, oldest first, across pages', async () => {
    const log: Event[] = [event('evt_000', 'payment.created', 990)];
    const api = await eventsApi(log);
    try {
      let now = 1000;
      const client = new Orquestra({ apiKey: 'svc_test_x', baseUrl: api.url });
      const poller = new EventPoller(client, { sinceSeconds: 1000, types: [], now: () => now });
      expect(await poller.poll()).toEqual([]);

      for (let n = 1; n <= 150; n += 1) log.push(event(`evt_${String(n).padStart(3, '0')}`, n % 2 ? 'payment.succeeded' : 'refund.succeeded', 1000 + Math.floor(n / 50)));
      now = 1003;
      const first = await poller.poll();
      expect(first.map((e) => e.id)).toEqual(log.slice(1).map((e) => e.id));
      // Two pages of 100 were read (has_more followed).
      expect(api.requests.filter((r) => r.query.get('starting_after')).length).toBeGreaterThanOrEqual(1);

      expect(await poller.poll()).toEqual([]);
      // An event that reaches the log late, behind ids already seen, still comes, once.
      log.push(event('evt_0505', 'payment.refunded', 1001));
      expect((await poller.poll()).map((e) => e.id)).toEqual(['evt_0505']);
      expect(await poller.poll()).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('sends one pattern to the API as its filter and matches several itself', async () => {
    const log = [event('evt_1', 'payment.succeeded', 1000), event('evt_2', 'refund.succeeded', 1000), event('evt_3', 'dispute.created', 1000)];
    const api = await eventsApi(log);
    try {
      const client = new Orquestra({ apiKey: 'svc_test_x', baseUrl: api.url });
      const one = new EventPoller(client, { sinceSeconds: 1000, types: ['refund.*'], now: () => 1000 });
      expect((await one.poll()).map((e) => e.id)).toEqual(['evt_2']);
      expect(api.requests.at(-1)!.query.get('type')).toBe('refund.*');

      const several = new EventPoller(client, { sinceSeconds: 1000, types: ['payment.succeeded', 'dispute.*'], now: () => 1000 });
      expect((await several.poll()).map((e) => e.id)).toEqual(['evt_1', 'evt_3']);
      expect(api.requests.at(-1)!.query.get('type')).toBeNull();
    } finally {
      await api.close();
    }
  });

  it('matches exact types, resource.* prefixes and *', () => {
    expect(matchesType('payment.succeeded', [])).toBe(true);
    expect(matchesType('payment.succeeded', ['*'])).toBe(true);
    expect(matchesType('payment.succeeded', ['payment.*'])).toBe(true);
    expect(matchesType('payment.succeeded', ['payment.failed'])).toBe(false);
    expect(matchesType('payout.paid', ['payment.*'])).toBe(false);
  });
});

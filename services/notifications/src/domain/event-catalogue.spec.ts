import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_CATALOGUE, EVENT_RESOURCES, paymentObjectSchema, PUBLIC_EVENT_TYPES, publicEventSchema } from '@orquestra/contracts';


describe('event catalogue', () => {
  it('names every public type <resource>.<action> and gives each a schema', () => {
    for (const type of PUBLIC_EVENT_TYPES) {
      expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(EVENT_CATALOGUE[type].schema).toBeDefined();
    }
    expect(Object.keys(EVENT_CATALOGUE).sort()).toEqual([...PUBLIC_EVENT_TYPES].sort());
    expect(EVENT_RESOURCES).toEqual(expect.arrayContaining(['payment', 'refund', 'dispute', 'payout', 'subaccount', 'subscription', 'card']));
  });

  it('is listed in docs/events.md, type by type', () => {
    const docs = readFileSync(path.resolve(__dirname, '../../../../docs/events.md'), 'utf8');
    for (const type of PUBLIC_EVENT_TYPES) expect(docs).toContain(`\`${type}\``);
  });

  it('validates a payment event and refuses a wrong one', () => {
    const schema = publicEventSchema(paymentObjectSchema);
    const event = {
      id: 'evt_01',
      object: 'event',
      type: 'payment.succeeded',
      created: 1_790_000_000,
      data: { object: { id: 'pay_1', object: 'payment', mode: 'test', method: 'pix', status: 'succeeded', amount: 1990, amount_refunded: 0, currency: 'BRL', metadata: { order: '1' }, created_at: '2026-01-01T00:00:00Z', extra: 1 } },
    };
    expect(schema.safeParse(event).success).toBe(true);
    expect(schema.safeParse({ ...event, data: { object: { ...event.data.object, amount: 19.9 } } }).success).toBe(false);
  });
});

import { common } from '@orquestra/contracts';
import { EventSchema } from '../schemas/event.response.schema';
import { toEventJson, toEventListJson } from './event.mapper';

const event = {
  id: 'evt_1',
  type: 'payment.succeeded',
  created: 1790000000,
  data_object_json: JSON.stringify({ id: 'pay_1', object: 'payment', metadata: { order_id: '42' } }),
  resource_id: 'pay_1',
  source: 'key_1',
  mode: common.Mode.MODE_TEST,
};

describe('event mapper', () => {
  it('maps an event with its resource under data.object', () => {
    expect(toEventJson(event)).toEqual({
      id: 'evt_1',
      object: 'event',
      type: 'payment.succeeded',
      created: 1790000000,
      data: { object: { id: 'pay_1', object: 'payment', metadata: { order_id: '42' } } },
    });
    expect(() => EventSchema.strict().parse(toEventJson(event))).not.toThrow();
  });

  it('shows null for a missing or unreadable resource instead of failing the whole list', () => {
    expect(toEventJson({ ...event, data_object_json: '' }).data.object).toBeNull();
    expect(toEventJson({ ...event, data_object_json: '{broken' }).data.object).toBeNull();
    expect(toEventJson({ ...event, data_object_json: '[1]' }).data.object).toBeNull();
  });

  it('maps a list page', () => {
    expect(toEventListJson({ data: [event], has_more: false })).toMatchObject({ object: 'list', has_more: false, data: [{ id: 'evt_1' }] });
  });
});

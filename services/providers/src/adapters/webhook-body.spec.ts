import { webhookObject } from './webhook-body';

describe('webhookObject', () => {
  it('reads a JSON object, with the provider’s parser when given', () => {
    expect(webhookObject(Buffer.from('{"id":"evt_1","value":19.90}'))).toEqual({ id: 'evt_1', value: 19.9 });
    expect(webhookObject(Buffer.from('{"value":19.90}'), (text) => ({ parsedBy: 'provider', text }))).toEqual({ parsedBy: 'provider', text: '{"value":19.90}' });
  });

  it('answers undefined (malformed) for anything that is not one JSON object', () => {
    for (const body of ['', 'not json', '[]', '[{"id":1}]', 'null', '42', '"text"']) expect(webhookObject(Buffer.from(body))).toBeUndefined();
  });
});

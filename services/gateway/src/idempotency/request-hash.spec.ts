import { canonicalJson, requestHash } from './request-hash';

describe('canonical request hash', () => {
  const body = { amount: 1990, customer: { name: 'Maria', email: 'm@x.com' }, metadata: { b: '2', a: '1' } };

  it('sorts keys at every depth', () => {
    expect(canonicalJson(body)).toBe('{"amount":1990,"customer":{"email":"m@x.com","name":"Maria"},"metadata":{"a":"1","b":"2"}}');
  });

  it('ignores key order', () => {
    const reordered = { metadata: { a: '1', b: '2' }, customer: { email: 'm@x.com', name: 'Maria' }, amount: 1990 };
    expect(requestHash(reordered)).toBe(requestHash(body));
  });

  it('treats an undefined field as absent', () => {
    expect(requestHash({ ...body, description: undefined })).toBe(requestHash(body));
  });

  it('changes when any value changes, however deep', () => {
    expect(requestHash({ ...body, amount: 1991 })).not.toBe(requestHash(body));
    expect(requestHash({ ...body, customer: { ...body.customer, name: 'Maria ' } })).not.toBe(requestHash(body));
    expect(requestHash({ ...body, metadata: { a: '1', b: '3' } })).not.toBe(requestHash(body));
  });

  it('keeps array order meaningful', () => {
    expect(requestHash({ list: [1, 2] })).not.toBe(requestHash({ list: [2, 1] }));
  });

  it('is a sha256 hex digest', () => {
    expect(requestHash(body)).toMatch(/^[0-9a-f]{64}$/);
  });
});

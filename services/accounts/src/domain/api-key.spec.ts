import { generateKeySecret, hashKeySecret, parseKeySecret } from './api-key';

describe('api keys', () => {
  it('generates keys with the spec prefixes that parse back to their mode', () => {
    const test = generateKeySecret('test');
    const live = generateKeySecret('live');
    expect(test).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
    expect(live).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(parseKeySecret(test)).toEqual({ mode: 'test' });
    expect(parseKeySecret(live)).toEqual({ mode: 'live' });
  });

  it('rejects text that is not a key', () => {
    expect(parseKeySecret('sk_test_abc')).toBeUndefined();
    expect(parseKeySecret('svc_test_short')).toBeUndefined();
    expect(parseKeySecret('svc_prod_' + 'a'.repeat(32))).toBeUndefined();
  });

  it('never generates the same key twice and hashes deterministically', () => {
    const a = generateKeySecret('test');
    const b = generateKeySecret('test');
    expect(a).not.toBe(b);
    expect(hashKeySecret(a)).toBe(hashKeySecret(a));
    expect(hashKeySecret(a)).not.toBe(hashKeySecret(b));
    expect(hashKeySecret(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

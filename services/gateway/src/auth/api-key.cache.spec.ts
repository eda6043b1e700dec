import { ApiKeyCache } from './api-key.cache';

describe('API key cache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000;
  });

  it('keys by the SHA-256 of the secret, never the secret', () => {
    const digest = ApiKeyCache.digest('svc_test_secret');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain('secret');
  });

  it('returns an entry until its TTL passes', () => {
    const cache = new ApiKeyCache<string>({ ttlMs: 100, maxEntries: 10, now: clock });
    cache.set('a', 'A');
    now += 99;
    expect(cache.get('a')).toBe('A');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stays bounded, evicting the oldest entry', () => {
    const cache = new ApiKeyCache<string>({ ttlMs: 1_000, maxEntries: 2, now: clock });
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('c', 'C');
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('B');
    expect(cache.get('c')).toBe('C');
  });

  it('caches nothing with a zero TTL', () => {
    const cache = new ApiKeyCache<string>({ ttlMs: 0, maxEntries: 2, now: clock });
    cache.set('a', 'A');
    expect(cache.get('a')).toBeUndefined();
  });
});

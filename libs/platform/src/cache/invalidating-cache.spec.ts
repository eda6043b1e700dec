import { InvalidatingCache } from './invalidating-cache';

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InvalidatingCache', () => {
  afterEach(() => jest.useRealTimers());

  it('loads once for concurrent reads of a key and serves later reads from the cache', async () => {
    const cache = new InvalidatingCache<string>({ ttlMs: 60_000 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)])).toEqual(['v1', 'v1', 'v1']);
    expect(await cache.get('a', load)).toBe('v1');
    expect(await cache.get('b', load)).toBe('v2');
    expect(cache.stats).toEqual({ hits: 3, misses: 2, size: 2 });
  });

  it('loads again after an invalidation of the key, and only that key', async () => {
    const cache = new InvalidatingCache<string>({ ttlMs: 60_000 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    await cache.get('a', load);
    await cache.get('b', load);
    cache.invalidate('a');
    expect(await cache.get('a', load)).toBe('v3');
    expect(await cache.get('b', load)).toBe('v2');
    cache.clear();
    expect(await cache.get('b', load)).toBe('v4');
  });

  it('does not keep a load that was running when the key was invalidated', async () => {
    const cache = new InvalidatingCache<string>({ ttlMs: 60_000 });
    const before = deferred<string>();
    const first = cache.get('a', () => before.promise);
    cache.invalidate('a');
    // A read after the change loads anew, even though the earlier load has not finished.
    const after = cache.get('a', async () => 'after');
    before.resolve('before');
    expect(await first).toBe('before');
    expect(await after).toBe('after');
    expect(await cache.get('a', async () => 'never')).toBe('after');
  });

  it('does not keep a failed load', async () => {
    const cache = new InvalidatingCache<string>({ ttlMs: 60_000 });
    await expect(cache.get('a', async () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await cache.get('a', async () => 'ok')).toBe('ok');
  });

  it('loads again once the time-to-live has passed', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = new InvalidatingCache<string>({ ttlMs: 5_000 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    await cache.get('a', load);
    jest.setSystemTime(1_004_999);
    expect(await cache.get('a', load)).toBe('v1');
    jest.setSystemTime(1_005_000);
    expect(await cache.get('a', load)).toBe('v2');
  });

  it('loads every time, and forgets what it held, while invalidations are not arriving', async () => {
    let live = true;
    const cache = new InvalidatingCache<string>({ ttlMs: 60_000, trusted: () => live });
    let loads = 0;
    const load = async () => `v${++loads}`;
    await cache.get('a', load);
    live = false;
    expect(await cache.get('a', load)).toBe('v2');
    expect(await cache.get('a', load)).toBe('v3');
    live = true;
    expect(await cache.get('a', load)).toBe('v4');
    expect(await cache.get('a', load)).toBe('v4');
  });

  it('keeps at most maxEntries, dropping the oldest loaded', async () => {
    const cache = new InvalidatingCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    expect(cache.stats.size).toBe(2);
    expect(await cache.get('b', load)).toBe('v2');
    expect(await cache.get('a', load)).toBe('v4');
  });
});

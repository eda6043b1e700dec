export interface InvalidatingCacheOptions {
  /**
   * The longest a value is served without being loaded again, whatever the invalidations say: a
   * bound on staleness if an invalidation is ever lost (a publisher that crashed between its write
   * and its signal).
   */
  ttlMs: number;
  /** Entries kept at most; the oldest loaded goes first. */
  maxEntries?: number;
  /**
   * Whether invalidations are arriving now (e.g. `() => subscription.live`). When not, every read
   * loads: a change made while the signal was down is never served from before it.
   */
  trusted?: () => boolean;
}

interface Entry<V> {
  value: Promise<V>;
  loadedAt: number;
}

/**
 * A read-through cache of look-ups that change rarely and are read on every request (a merchant's
 * provider accounts, its routing rules), dropped by the writer's signal rather than by guessing a
 * lifetime (docs/decisions.md "Caches").
 *
 * - Concurrent reads of a key share one load.
 * - `invalidate(key)` (or `clear()`) drops the entry at once; a load already running when it came
 *   finishes for its own callers but is not kept, so nothing loaded before a change outlives it.
 * - A failed load is not kept.
 *
 * @example
 * const accounts = new InvalidatingCache<Account[]>({ ttlMs: 30_000, trusted: () => subscription.live });
 * const list = await accounts.get(`${merchantId}:${mode}`, () => loadAccounts(merchantId, mode));
 * // on 'internal.provider_accounts.changed' for that merchant and mode:
 * accounts.invalidate(`${merchantId}:${mode}`);
 */
export class InvalidatingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private hitCount = 0;
  private missCount = 0;

  constructor(private readonly options: InvalidatingCacheOptions) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.options.trusted && !this.options.trusted()) {
      this.entries.clear();
      this.missCount += 1;
      return load();
    }
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.loadedAt < this.options.ttlMs) {
      this.hitCount += 1;
      return entry.value;
    }
    this.missCount += 1;
    const loading: Entry<V> = { value: load(), loadedAt: now };
    this.entries.delete(key);
    this.entries.set(key, loading);
    loading.value.catch(() => {
      if (this.entries.get(key) === loading) this.entries.delete(key);
    });
    const max = this.options.maxEntries ?? 10_000;
    if (this.entries.size > max) this.entries.delete(this.entries.keys().next().value as string);
    return loading.value;
  }

  invalidate(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Reads answered from the cache and reads that loaded, since the start. */
  get stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hitCount, misses: this.missCount, size: this.entries.size };
  }
}

import { createHash } from 'node:crypto';

/**
 * A bounded in-memory TTL cache of resolved API keys. Entries are keyed by the SHA-256 of the
 * secret, so the secret itself never sits in the gateway's heap longer than one request.
 * When full, the oldest insertion is evicted (Map keeps insertion order), which is enough for a
 * cache whose entries all live the same short time.
 */
export class ApiKeyCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {}

  static digest(secret: string): string {
    return createHash('sha256').update(secret).digest('hex');
  }

  get(digest: string): V | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.value;
  }

  set(digest: string, value: V): void {
    if (this.options.ttlMs <= 0) return;
    this.entries.delete(digest);
    while (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(digest, { value, expiresAt: this.now() + this.options.ttlMs });
  }

  /** Drops every entry whose value matches (a revoked key's answer, found by its key id). */
  deleteWhere(matches: (value: V) => boolean): number {
    let dropped = 0;
    for (const [digest, entry] of this.entries) {
      if (matches(entry.value)) {
        this.entries.delete(digest);
        dropped += 1;
      }
    }
    return dropped;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}

import { accounts, common } from '@orquestra/contracts';
import { AppError, type Logger } from '@orquestra/platform';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { ApiKeyCache } from './api-key.cache';

/** Who a key belongs to, as the accounts service answered. */
export interface KeyIdentity {
  merchant_id: string;
  key_id: string;
  mode: common.Mode;
  restricted: boolean;
}

/**
 * Shape of a secret (§5: `svc_test_…` / `svc_live_…`). Checked locally so that garbage never costs
 * a downstream call; the accounts service remains the judge of the exact format.
 */
const SECRET_SHAPE = /^svc_(test|live)_[A-Za-z0-9_-]{16,128}$/;

export interface ApiKeyResolverOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
  /**
   * Whether revocation signals arrive now (the gateway's `internal.api_keys.changed` subscription
   * is live). While not, nothing is served from the cache or kept in it: every look-up asks accounts.
   * Absent: trusted (the TTL alone bounds a revoked key's life, as before the signals).
   */
  trusted?: () => boolean;
}

/**
 * Resolves API key secrets through `accounts.AuthenticateKey`, caching positive answers for
 * `ttlMs`. A revocation drops the key's answer at once on every replica (`dropKey`, fed by the
 * broadcast signal `internal.api_keys.changed`, docs/decisions.md "Caches"); the TTL only bounds a
 * signal lost in a crash. Unknown keys are not cached: each try asks accounts again. Concurrent
 * look-ups of the same key share one call; one running when a key is dropped is not kept.
 */
export class ApiKeyResolver {
  private readonly cache: ApiKeyCache<KeyIdentity>;
  private readonly inFlight = new Map<string, { lookup: Promise<KeyIdentity>; generation: number }>();
  /** Bumped by every drop: a look-up that started before a drop does not fill the cache. */
  private generation = 0;

  constructor(
    private readonly deps: { accounts: Pick<DownstreamClients['accounts'], 'authenticateKey'>; logger: Logger },
    private readonly options: ApiKeyResolverOptions,
  ) {
    this.cache = new ApiKeyCache(options);
  }

  /** Forgets a revoked key's answer (the signal carries its key id, never its secret). */
  dropKey(keyId: string): void {
    this.generation += 1;
    this.cache.deleteWhere((identity) => identity.key_id === keyId);
  }

  /** Forgets everything (the signal subscription was bound again after an outage). */
  clear(): void {
    this.generation += 1;
    this.cache.clear();
  }

  /** Throws AppError `unauthenticated` for anything that is not a live key of a known merchant. */
  async resolve(secret: string, requestId: string): Promise<KeyIdentity> {
    const shape = SECRET_SHAPE.exec(secret);
    if (!shape) throw new AppError('unauthenticated');
    const digest = ApiKeyCache.digest(secret);
    const trusted = this.options.trusted?.() ?? true;
    if (!trusted) this.clear();
    const cached = trusted ? this.cache.get(digest) : undefined;
    if (cached) return cached;
    const pending = this.inFlight.get(digest);
    // Shared only when it started after the last drop: an older one may answer a key revoked since.
    if (pending && pending.generation === this.generation) return pending.lookup;
    const startedAt = this.generation;
    const lookup = this.lookUp(secret, shape[1] === 'live' ? common.Mode.MODE_LIVE : common.Mode.MODE_TEST, requestId)
      .then((identity) => {
        if (trusted && startedAt === this.generation) this.cache.set(digest, identity);
        return identity;
      })
      .finally(() => {
        if (this.inFlight.get(digest)?.lookup === lookup) this.inFlight.delete(digest);
      });
    this.inFlight.set(digest, { lookup, generation: startedAt });
    return lookup;
  }

  private async lookUp(secret: string, prefixMode: common.Mode, requestId: string): Promise<KeyIdentity> {
    const answer = await this.deps.accounts.authenticateKey({ secret }, { requestId });
    // Defence in depth: the mode a key claims by its prefix must be the mode accounts stored.
    if (!answer.merchant_id || !answer.key_id || answer.mode !== prefixMode) {
      this.deps.logger.warn({ request_id: requestId, key_id: answer.key_id }, 'key answer inconsistent with its prefix');
      throw new AppError('unauthenticated');
    }
    return {
      merchant_id: answer.merchant_id,
      key_id: answer.key_id,
      mode: answer.mode,
      // Fail closed: only an explicit full key gets full access.
      restricted: answer.kind !== accounts.KeyKind.KEY_KIND_FULL,
    };
  }
}

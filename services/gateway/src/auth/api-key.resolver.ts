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

/**
 * Resolves API key secrets through `accounts.AuthenticateKey`, caching positive answers for
 * `ttlMs` (a revoked key keeps working at most that long on this replica). Unknown keys are not
 * cached: each try asks accounts again. Concurrent look-ups of the same key share one call.
 */
export class ApiKeyResolver {
  private readonly cache: ApiKeyCache<KeyIdentity>;
  private readonly inFlight = new Map<string, Promise<KeyIdentity>>();

  constructor(
    private readonly deps: { accounts: DownstreamClients['accounts']; logger: Logger },
    options: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {
    this.cache = new ApiKeyCache(options);
  }

  /** Throws AppError `unauthenticated` for anything that is not a live key of a known merchant. */
  async resolve(secret: string, requestId: string): Promise<KeyIdentity> {
    const shape = SECRET_SHAPE.exec(secret);
    if (!shape) throw new AppError('unauthenticated');
    const digest = ApiKeyCache.digest(secret);
    const cached = this.cache.get(digest);
    if (cached) return cached;
    const pending = this.inFlight.get(digest);
    if (pending) return pending;
    const lookup = this.lookUp(secret, shape[1] === 'live' ? common.Mode.MODE_LIVE : common.Mode.MODE_TEST, requestId)
      .then((identity) => {
        this.cache.set(digest, identity);
        return identity;
      })
      .finally(() => this.inFlight.delete(digest));
    this.inFlight.set(digest, lookup);
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

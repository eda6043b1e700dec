import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import { ProviderError } from '../adapters/provider-adapter';

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerSettings {
  errorThresholdPercentage: number;
  volumeThreshold: number;
  resetTimeout: number;
  /** The window over which failures are counted; 10 s when not given. */
  rollingWindowMs?: number;
  /**
   * Consecutive provider failures that open the breaker at once, whatever the percentage over
   * the window (a sudden outage after a healthy period would otherwise wait until the failures
   * outweigh the window's earlier successes). 0 turns it off.
   */
  consecutiveFailures?: number;
}

/**
 * One opossum circuit breaker per provider account. Every outbound call to an account goes through
 * its breaker; when the account keeps failing, the breaker opens and calls fail at once (without
 * waiting on a dead provider) until a half-open trial succeeds.
 *
 * Only failures that say the provider is unhealthy count: transport errors, timeouts, 5xx and 429.
 * A rejected request (bad data) or an unknown charge is the caller's problem, not the provider's.
 */
export class BreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker<[() => Promise<unknown>], unknown>>();
  private readonly providers = new Map<string, string>();
  private readonly failureStreaks = new Map<string, number>();
  /**
   * Called when an account's breaker half-opens: the owner runs one cheap trial call through the
   * breaker (closing it when the provider answers), so recovery never waits on payment traffic
   * that routing sends elsewhere meanwhile.
   */
  onHalfOpen: ((accountId: string) => void) | undefined;
  /**
   * Told of every state change of an account's breaker (routing reads the states): `local` when
   * this replica's calls or trial moved it, `peer` when applyPeer did (another replica's transition).
   */
  onStateChange: ((accountId: string, state: BreakerState, origin: 'local' | 'peer') => void) | undefined;
  /** True while applyPeer moves a breaker, so its events are told as `peer`. */
  private applyingPeer = false;
  /** Observes every call (provider, account, result, seconds); set for metrics. */
  onCallEnd: ((provider: string, accountId: string, result: string, seconds: number) => void) | undefined;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly logger: Logger,
  ) {}

  async fire<T>(accountId: string, call: () => Promise<T>, provider = 'unknown'): Promise<T> {
    this.providers.set(accountId, provider);
    const started = process.hrtime.bigint();
    const observe = (result: string) => this.onCallEnd?.(provider, accountId, result, Number(process.hrtime.bigint() - started) / 1e9);
    const breaker = this.breaker(accountId);
    try {
      const result = (await breaker.fire(call)) as T;
      this.failureStreaks.delete(accountId);
      observe('ok');
      return result;
    } catch (error) {
      if ((error as { code?: string }).code === 'EOPENBREAKER') {
        observe('breaker_open');
        throw new ProviderError('not_created', 'provider_unavailable', `circuit open for ${accountId}`);
      }
      observe(error instanceof ProviderError ? error.kind : 'error');
      if (countsAgainstProvider(error)) this.recordFailure(accountId, breaker);
      throw error;
    }
  }

  private recordFailure(accountId: string, breaker: CircuitBreaker<[() => Promise<unknown>], unknown>): void {
    const limit = this.settings.consecutiveFailures ?? 0;
    const streak = (this.failureStreaks.get(accountId) ?? 0) + 1;
    this.failureStreaks.set(accountId, streak);
    if (limit > 0 && streak >= limit && !breaker.opened) {
      this.logger.warn({ account_id: accountId, consecutive_failures: streak }, 'opening the breaker after consecutive failures');
      this.failureStreaks.delete(accountId);
      breaker.open();
    }
  }

  /**
   * Applies another replica's transition to this replica's breaker of the account: `open` opens it
   * (for a full reset timeout, after which this replica runs its own trial), `closed` closes it.
   * Answers whether the state changed.
   */
  applyPeer(accountId: string, state: 'open' | 'closed'): boolean {
    const current = this.state(accountId);
    if (current === state) return false;
    const breaker = this.breaker(accountId);
    this.applyingPeer = true;
    try {
      if (state === 'open') breaker.open();
      else breaker.close();
    } finally {
      this.applyingPeer = false;
    }
    this.failureStreaks.delete(accountId);
    return true;
  }

  state(accountId: string): BreakerState {
    const breaker = this.breakers.get(accountId);
    if (!breaker) return 'closed';
    if (breaker.opened) return 'open';
    return breaker.halfOpen ? 'half_open' : 'closed';
  }

  /** Every breaker's state, for metrics. */
  states(): Array<{ accountId: string; provider: string; state: BreakerState }> {
    return [...this.breakers.keys()].map((accountId) => ({
      accountId,
      provider: this.providers.get(accountId) ?? 'unknown',
      state: this.state(accountId),
    }));
  }

  shutdown(): void {
    for (const breaker of this.breakers.values()) breaker.shutdown();
  }

  private breaker(accountId: string): CircuitBreaker<[() => Promise<unknown>], unknown> {
    let breaker = this.breakers.get(accountId);
    if (!breaker) {
      breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
        // The adapter enforces its own request timeout and classifies it (ambiguous); the breaker
        // must not race it with a second timer.
        timeout: false,
        errorThresholdPercentage: this.settings.errorThresholdPercentage,
        volumeThreshold: this.settings.volumeThreshold,
        resetTimeout: this.settings.resetTimeout,
        rollingCountTimeout: this.settings.rollingWindowMs ?? 10_000,
        rollingCountBuckets: 10,
        errorFilter: (error: unknown) => !countsAgainstProvider(error),
      });
      const origin = () => (this.applyingPeer ? 'peer' : 'local');
      breaker.on('open', () => {
        this.logger.warn({ account_id: accountId, origin: origin() }, 'circuit breaker opened');
        this.onStateChange?.(accountId, 'open', origin());
      });
      breaker.on('halfOpen', () => {
        this.logger.info({ account_id: accountId }, 'circuit breaker half-open');
        this.onStateChange?.(accountId, 'half_open', 'local');
        this.onHalfOpen?.(accountId);
      });
      breaker.on('close', () => {
        this.logger.info({ account_id: accountId, origin: origin() }, 'circuit breaker closed');
        this.onStateChange?.(accountId, 'closed', origin());
      });
      this.breakers.set(accountId, breaker);
    }
    return breaker;
  }
}

/** Whether a failed call says the provider is unhealthy (not a caller problem such as bad data). */
function countsAgainstProvider(error: unknown): boolean {
  return !(error instanceof ProviderError && (error.kind === 'rejected' || error.kind === 'not_found' || error.kind === 'invalid_credentials'));
}

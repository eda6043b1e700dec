import { modeName, PROVIDER_ACCOUNTS_CHANGED, ROUTING_RULES_CHANGED, type common, type providers } from '@orquestra/contracts';
import { InvalidatingCache, type EventBus, type RpcClient } from '@orquestra/platform';
import type { RoutingRuleDoc } from '../db/routing-rule.model';
import type { RulesService } from './rules.service';

/**
 * What every route reads and rarely changes — the merchant's provider accounts (with their breaker
 * states) and its routing rules — cached per merchant and mode, dropped by the writers' signals
 * (`internal.provider_accounts.changed` from providers, `internal.routing_rules.changed` from any
 * routing replica) and trusted only while those signals arrive (`trusted`). Without the caches a
 * payment costs a gRPC call to providers and two store reads before it is routed.
 *
 * A stale account list cannot allow a charge: providers refuses a charge on a disabled account
 * or an open breaker itself (payments then tries the next candidate). It can carry stale fee rules,
 * though, if a signal was lost (a providers replica without its broker connection): the fee a
 * payment records may then be the previous schedule's, for at most the time-to-live.
 */
export class RoutingLookups {
  private readonly accountCache: InvalidatingCache<providers.ProviderAccount[]>;
  private readonly ruleCache: InvalidatingCache<RoutingRuleDoc[]>;

  constructor(
    private readonly providersClient: RpcClient<typeof providers.ProvidersServiceService>,
    private readonly rules: RulesService,
    options: { ttlMs: number; trusted: () => boolean },
  ) {
    this.accountCache = new InvalidatingCache(options);
    this.ruleCache = new InvalidatingCache(options);
  }

  accounts(caller: common.Caller, requestId: string): Promise<providers.ProviderAccount[]> {
    return this.accountCache.get(keyOf(caller.merchant_id, modeName(caller.mode)), async () => {
      const { accounts } = await this.providersClient.listAccounts({ merchant_id: caller.merchant_id, mode: caller.mode }, { requestId });
      return accounts;
    });
  }

  routingRules(caller: common.Caller): Promise<RoutingRuleDoc[]> {
    return this.ruleCache.get(keyOf(caller.merchant_id, modeName(caller.mode)), () => this.rules.list(caller));
  }

  /** A merchant's accounts changed; without a merchant (a breaker changed state), every merchant's. */
  accountsChanged(scope: { merchant_id: string; mode: string }): void {
    if (scope.merchant_id) this.accountCache.invalidate(keyOf(scope.merchant_id, scope.mode));
    else this.accountCache.clear();
  }

  rulesChanged(scope: { merchant_id: string; mode: string }): void {
    this.ruleCache.invalidate(keyOf(scope.merchant_id, scope.mode));
  }

  /** Everything cached may have changed unseen (the signals were down): drop it. */
  clear(): void {
    this.accountCache.clear();
    this.ruleCache.clear();
  }

  get stats(): { accounts: { hits: number; misses: number }; rules: { hits: number; misses: number } } {
    return { accounts: this.accountCache.stats, rules: this.ruleCache.stats };
  }
}

/**
 * The lookups of one routing replica, wired as main.ts wires them: cached, dropped by the signals of
 * providers (accounts, breakers) and of any routing replica (rules) through a subscription of this
 * process's own (every replica gets every signal), trusted only while it is live; this replica's
 * rule writes drop its own entry at once and tell the others.
 */
export async function subscribedLookups(options: {
  bus: EventBus;
  providersClient: RpcClient<typeof providers.ProvidersServiceService>;
  rules: RulesService;
  ttlMs: number;
}): Promise<RoutingLookups> {
  let signals: { live: boolean } = { live: false };
  const lookups = new RoutingLookups(options.providersClient, options.rules, { ttlMs: options.ttlMs, trusted: () => signals.live });
  signals = await options.bus.subscribe(
    [PROVIDER_ACCOUNTS_CHANGED, ROUTING_RULES_CHANGED],
    (event) => (event.type === ROUTING_RULES_CHANGED ? lookups.rulesChanged(event) : lookups.accountsChanged(event)),
    () => lookups.clear(),
  );
  options.rules.onChange = (scope) => {
    lookups.rulesChanged(scope);
    void options.bus.signal(ROUTING_RULES_CHANGED, scope, {});
  };
  return lookups;
}

function keyOf(merchantId: string, mode: string): string {
  return `${merchantId}:${mode}`;
}

import { modeName, type common, type providers, type routing } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { toProtoRule } from '../db/rule.mapper';
import type { AccountHealth } from '../domain/account-health';
import { drawFor, planRoute, type AccountView, type CustomerField, type Plan } from '../domain/route-planner';
import type { RoutingLookups } from '../domain/routing-lookups';
import type { RulesService } from '../domain/rules.service';

function callerOf(caller: common.Caller | undefined): common.Caller {
  if (!caller?.merchant_id) throw new AppError('unauthenticated');
  return caller;
}

function customerHas(customer: common.Customer | undefined): Record<CustomerField, boolean> {
  const address = customer?.address;
  return {
    document: Boolean(customer?.document),
    email: Boolean(customer?.email),
    phone: Boolean(customer?.phone),
    address: Boolean(address?.street && address.number && address.city && address.state && address.zip),
  };
}

export function routingHandlers(deps: {
  rules: RulesService;
  /** The accounts and rules every route reads, cached (RoutingLookups). */
  lookups: RoutingLookups;
  health: AccountHealth;
  /** Recent attempts needed before an account's success rate can rank it last. */
  healthMinAttempts?: number;
}): Handlers<typeof routing.RoutingServiceService> {
  const { rules, lookups, health } = deps;

  const plan = async (
    caller: common.Caller,
    request: { method: string; amount: number; metadata: Record<string, string>; customer?: common.Customer; forced?: string; hostedCheckout?: boolean; vaultCard?: boolean; vaultCardWithoutCvc?: boolean; paymentId?: string },
    requestId: string,
  ): Promise<{ plan: Plan; fees: Map<string, providers.FeeRule[]> }> => {
    const [accounts, ruleDocs] = await Promise.all([lookups.accounts(caller, requestId), lookups.routingRules(caller)]);
    const views: AccountView[] = accounts
      .filter((a) => modeName(a.mode) === modeName(caller.mode))
      .map((a) => ({ id: a.id, provider: a.provider, enabled: a.enabled, priority: a.priority, methods: a.methods, requires: a.requires, hostedCheckout: a.hosted_checkout, vaultCards: a.vault_cards, vaultCardsNeedCvc: a.vault_cards_need_cvc, breakerState: a.breaker_state || 'closed' }));
    const result = planRoute(views, ruleDocs, health.snapshot(), {
      method: request.method,
      amount: request.amount,
      metadata: request.metadata,
      customerHas: customerHas(request.customer),
      ...(request.forced ? { forcedAccountId: request.forced } : {}),
      ...(request.hostedCheckout ? { hostedCheckout: true } : {}),
      ...(request.vaultCard ? { vaultCard: { withoutCvc: request.vaultCardWithoutCvc === true } } : {}),
      random: request.paymentId ? drawFor(request.paymentId) : Math.random,
      ...(deps.healthMinAttempts ? { healthMinAttempts: deps.healthMinAttempts } : {}),
    });
    return { plan: result, fees: new Map(accounts.map((a) => [a.id, a.fees])) };
  };

  const candidatesOf = (result: Plan, fees: Map<string, providers.FeeRule[]>): routing.Candidate[] =>
    result.candidates.map(({ account, reason }) => ({
      account_id: account.id,
      provider: account.provider,
      priority: account.priority,
      reason,
      fees: fees.get(account.id) ?? [],
    }));

  return {
    async route(request, context) {
      const caller = callerOf(request.caller);
      const { plan: result, fees } = await plan(
        caller,
        { method: request.method, amount: request.amount, metadata: request.metadata, customer: request.customer, forced: request.forced_account_id, hostedCheckout: request.hosted_checkout, vaultCard: request.vault_card, vaultCardWithoutCvc: request.vault_card_without_cvc, paymentId: request.payment_id },
        context.requestId,
      );
      if (result.error) throw new AppError(result.error.code, { param: result.error.param, ...(result.error.message ? { message: result.error.message } : {}) });
      return { candidates: candidatesOf(result, fees) };
    },

    async simulate(request, context) {
      const caller = callerOf(request.caller);
      const { plan: result, fees } = await plan(
        caller,
        { method: request.method, amount: request.amount, metadata: request.metadata, customer: request.customer },
        context.requestId,
      );
      return {
        candidates: candidatesOf(result, fees),
        accounts: result.verdicts.map((v) => ({
          account_id: v.accountId,
          provider: v.provider,
          verdict: v.verdict,
          rank: v.rank,
          reasons: v.reasons,
          breaker_state: v.breakerState,
          success_rate: v.successRate,
          recent_attempts: v.recentAttempts,
        })),
        matched_rule_id: result.matchedRuleId,
        error_code: result.error?.code ?? '',
        error_param: result.error?.param ?? '',
      };
    },

    async createRule(request, context) {
      return { rule: toProtoRule(await rules.create(callerOf(request.caller), request.rule, context.requestId)) };
    },

    async listRules(request) {
      return { data: (await rules.list(callerOf(request.caller))).map(toProtoRule) };
    },

    async getRule(request) {
      return { rule: toProtoRule(await rules.get(callerOf(request.caller), request.rule_id)) };
    },

    async updateRule(request, context) {
      return { rule: toProtoRule(await rules.update(callerOf(request.caller), request.rule_id, request.rule, context.requestId)) };
    },

    async deleteRule(request) {
      await rules.remove(callerOf(request.caller), request.rule_id);
      return { rule_id: request.rule_id };
    },

    async reorderRules(request) {
      return { data: (await rules.reorder(callerOf(request.caller), request.rule_ids)).map(toProtoRule) };
    },
  };
}

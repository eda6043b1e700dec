import { modeName, type common, type providers, type routing } from '@orquestra/contracts';
import { AppError, newId, type LockManager, type RpcClient } from '@orquestra/platform';
import type { RoutingRuleDoc, RoutingRuleModel } from '../db/routing-rule.model';
import { validateRule, type RuleDraft } from './rule-validation';

const MAX_RULES = 100;

function draftOf(input: routing.RuleInput | undefined): RuleDraft {
  const conditions = input?.conditions;
  const target = input?.target;
  return {
    name: input?.name ?? '',
    conditions: {
      methods: conditions?.methods ?? [],
      amount_min: conditions?.amount_min ?? 0,
      amount_max: conditions?.amount_max ?? 0,
      metadata: (conditions?.metadata ?? []).map((m) => ({ key: m.key, value: m.value })),
      customer_has: conditions?.customer_has ?? [],
    },
    target: {
      type: target?.type ?? '',
      accounts: target?.accounts ?? [],
      weights: (target?.weights ?? []).map((w) => ({ account_id: w.account_id, percentage: w.percentage })),
      fallback: target?.fallback ?? true,
    },
  };
}

/**
 * Routing rules of one merchant and mode. Every change holds the merchant-mode rules lock, so
 * priorities stay a consistent order (the store has no multi-document transactions).
 */
export class RulesService {
  constructor(
    private readonly rules: RoutingRuleModel,
    private readonly locks: LockManager,
    private readonly providersClient: RpcClient<typeof providers.ProvidersServiceService>,
  ) {}

  list(caller: common.Caller): Promise<RoutingRuleDoc[]> {
    return this.rules.find({ merchant_id: caller.merchant_id, mode: modeName(caller.mode) }).sort({ priority: 1, _id: 1 }).lean<RoutingRuleDoc[]>().exec();
  }

  async get(caller: common.Caller, id: string): Promise<RoutingRuleDoc> {
    const doc = await this.rules.findOne({ _id: id, merchant_id: caller.merchant_id, mode: modeName(caller.mode) }).lean<RoutingRuleDoc>();
    if (!doc) throw new AppError('not_found', { param: 'id', message: `Regra ${id} não encontrada neste modo.` });
    return doc;
  }

  private async connectedAccounts(caller: common.Caller, requestId: string): Promise<Set<string>> {
    const { accounts } = await this.providersClient.listAccounts({ merchant_id: caller.merchant_id, mode: caller.mode }, { requestId });
    return new Set(accounts.map((a) => a.id));
  }

  private lockName(caller: common.Caller): string {
    return `routing_rules:${caller.merchant_id}:${modeName(caller.mode)}`;
  }

  async create(caller: common.Caller, input: routing.RuleInput | undefined, requestId: string): Promise<RoutingRuleDoc> {
    const draft = draftOf(input);
    validateRule(draft, await this.connectedAccounts(caller, requestId));
    return this.locks.withLock(this.lockName(caller), async () => {
      const existing = await this.list(caller);
      if (existing.length >= MAX_RULES) throw new AppError('parameter_invalid', { param: 'rules', message: `Limite de ${MAX_RULES} regras por modo atingido. Remova regras antigas.` });
      const now = new Date();
      const id = newId('routingRule');
      const doc: RoutingRuleDoc = {
        _id: id,
        id,
        merchant_id: caller.merchant_id,
        mode: modeName(caller.mode),
        name: draft.name.trim(),
        priority: input?.priority ?? (existing.at(-1)?.priority ?? 0) + 1,
        enabled: input?.enabled ?? true,
        conditions: draft.conditions,
        target: draft.target,
        created_at: now,
        updated_at: now,
      };
      await this.rules.create(doc);
      return doc;
    });
  }

  async update(caller: common.Caller, id: string, input: routing.RuleInput | undefined, requestId: string): Promise<RoutingRuleDoc> {
    const draft = draftOf(input);
    validateRule(draft, await this.connectedAccounts(caller, requestId));
    return this.locks.withLock(this.lockName(caller), async () => {
      const current = await this.get(caller, id);
      const changes = {
        name: draft.name.trim(),
        conditions: draft.conditions,
        target: draft.target,
        priority: input?.priority ?? current.priority,
        enabled: input?.enabled ?? current.enabled,
        updated_at: new Date(),
      };
      await this.rules.updateOne({ _id: id }, { $set: changes });
      return { ...current, ...changes };
    });
  }

  async remove(caller: common.Caller, id: string): Promise<void> {
    await this.locks.withLock(this.lockName(caller), async () => {
      await this.get(caller, id);
      await this.rules.deleteOne({ _id: id });
    });
  }

  async reorder(caller: common.Caller, ids: string[]): Promise<RoutingRuleDoc[]> {
    return this.locks.withLock(this.lockName(caller), async () => {
      const rules = await this.list(caller);
      const known = new Set(rules.map((r) => r._id));
      if (ids.length !== rules.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
        throw new AppError('parameter_invalid', {
          param: 'rule_ids',
          message: 'Envie em rule_ids todos os ids das regras deste modo, cada um uma vez, na ordem desejada.',
        });
      }
      const now = new Date();
      for (const [index, id] of ids.entries()) await this.rules.updateOne({ _id: id }, { $set: { priority: index + 1, updated_at: now } });
      return this.list(caller);
    });
  }
}

import { modeName, type common, type providers, type routing } from '@orquestra/contracts';
import { AppError, newId, type RpcClient } from '@orquestra/platform';
import type { RoutingRuleDoc, RoutingRuleModel, RuleOrderDoc, RuleOrderModel } from '../db/routing-rule.model';
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
 * Routing rules of one merchant and mode, without locks: a rule's change is one write of its own
 * document, the rule limit is checked after the insert (the newest rules over the limit remove
 * themselves), and a reorder is numbered so the latest one wins on every rule it writes.
 */
export class RulesService {
  /** Told after every write to a merchant's rules, also failed ones that may have written (routing caches the rules). */
  onChange: ((scope: { merchant_id: string; mode: 'test' | 'live' }) => void) | undefined;

  constructor(
    private readonly rules: RoutingRuleModel,
    private readonly orders: RuleOrderModel,
    private readonly providersClient: RpcClient<typeof providers.ProvidersServiceService>,
  ) {}

  list(caller: common.Caller): Promise<RoutingRuleDoc[]> {
    return this.rules.find(this.scope(caller)).sort({ priority: 1, _id: 1 }).lean<RoutingRuleDoc[]>().exec();
  }

  async get(caller: common.Caller, id: string): Promise<RoutingRuleDoc> {
    const doc = await this.rules.findOne({ _id: id, ...this.scope(caller) }).lean<RoutingRuleDoc>();
    if (!doc) throw notFound(id);
    return doc;
  }

  private scope(caller: common.Caller): { merchant_id: string; mode: 'test' | 'live' } {
    return { merchant_id: caller.merchant_id, mode: modeName(caller.mode) };
  }

  private async connectedAccounts(caller: common.Caller, requestId: string): Promise<Set<string>> {
    const { accounts } = await this.providersClient.listAccounts({ merchant_id: caller.merchant_id, mode: caller.mode }, { requestId });
    return new Set(accounts.map((a) => a.id));
  }

  async create(caller: common.Caller, input: routing.RuleInput | undefined, requestId: string): Promise<RoutingRuleDoc> {
    const draft = draftOf(input);
    validateRule(draft, await this.connectedAccounts(caller, requestId));
    const existing = await this.list(caller);
    if (existing.length >= MAX_RULES) throw limitReached();
    const now = new Date();
    const id = newId('routingRule');
    const doc: RoutingRuleDoc = {
      _id: id,
      id,
      ...this.scope(caller),
      name: draft.name.trim(),
      // Two rules created at once may share a priority; the list orders ties by id (creation order).
      priority: input?.priority ?? Math.max(0, ...existing.map((r) => r.priority)) + 1,
      enabled: input?.enabled ?? true,
      conditions: draft.conditions,
      target: draft.target,
      order_seq: 0,
      created_at: now,
      updated_at: now,
    };
    await this.rules.create(doc);
    try {
      // Concurrent creates may each have seen room for one more: ids are ULIDs, so the rules past the
      // limit in creation order are the newest ones, and each of those removes itself.
      const oldest = await this.rules.find(this.scope(caller), { _id: 1 }).sort({ _id: 1 }).limit(MAX_RULES).lean<Array<{ _id: string }>>();
      if (oldest.length === MAX_RULES && id > oldest[MAX_RULES - 1]!._id) {
        await this.rules.deleteOne({ _id: id });
        throw limitReached();
      }
      return doc;
    } finally {
      this.onChange?.(this.scope(caller));
    }
  }

  async update(caller: common.Caller, id: string, input: routing.RuleInput | undefined, requestId: string): Promise<RoutingRuleDoc> {
    const draft = draftOf(input);
    validateRule(draft, await this.connectedAccounts(caller, requestId));
    const changes: Partial<RoutingRuleDoc> = {
      name: draft.name.trim(),
      conditions: draft.conditions,
      target: draft.target,
      updated_at: new Date(),
      ...(input?.priority !== undefined ? { priority: input.priority } : {}),
      ...(input?.enabled !== undefined ? { enabled: input.enabled } : {}),
    };
    const updated = await this.rules
      .findOneAndUpdate({ _id: id, ...this.scope(caller) }, { $set: changes }, { new: true })
      .lean<RoutingRuleDoc>();
    if (!updated) throw notFound(id);
    this.onChange?.(this.scope(caller));
    return updated;
  }

  async remove(caller: common.Caller, id: string): Promise<void> {
    const { deletedCount } = await this.rules.deleteOne({ _id: id, ...this.scope(caller) });
    if (deletedCount === 0) throw notFound(id);
    this.onChange?.(this.scope(caller));
  }

  async reorder(caller: common.Caller, ids: string[]): Promise<RoutingRuleDoc[]> {
    const rules = await this.list(caller);
    const known = new Set(rules.map((r) => r._id));
    if (ids.length !== rules.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
      throw new AppError('parameter_invalid', {
        param: 'rule_ids',
        message: 'Envie em rule_ids todos os ids das regras deste modo, cada um uma vez, na ordem desejada.',
      });
    }
    const scope = this.scope(caller);
    const counter = await this.orders
      .findOneAndUpdate({ _id: `${scope.merchant_id}:${scope.mode}` }, { $inc: { seq: 1 } }, { upsert: true, new: true })
      .lean<RuleOrderDoc>();
    const seq = counter!.seq;
    const now = new Date();
    await this.rules.bulkWrite(
      ids.map((id, index) => ({
        updateOne: {
          filter: { _id: id, ...scope, order_seq: { $lt: seq } },
          update: { $set: { priority: index + 1, order_seq: seq, updated_at: now } },
        },
      })),
      { ordered: false },
    );
    this.onChange?.(scope);
    return this.list(caller);
  }
}

const notFound = (id: string) => new AppError('not_found', { param: 'id', message: `Regra ${id} não encontrada neste modo.` });

const limitReached = () =>
  new AppError('parameter_invalid', { param: 'rules', message: `Limite de ${MAX_RULES} regras por modo atingido. Remova regras antigas.` });

import { modeName, type common, type providers, type routing } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, type RpcClient } from '@orquestra/platform';
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
 * document, a place under the rule limit is reserved by a guarded `$inc` before the insert, and a
 * reorder is numbered so the latest one wins on every rule it writes.
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
    const scope = this.scope(caller);
    const existing = await this.list(caller);
    const now = new Date();
    const id = newId('routingRule');
    const doc: RoutingRuleDoc = {
      _id: id,
      id,
      ...scope,
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
    // A place under the limit is reserved before the insert (one guarded $inc), so racing creates
    // can never end above it; a failed insert gives its place back.
    if (!(await this.reservePlace(scope))) throw limitReached();
    try {
      await this.rules.create(doc);
    } catch (error) {
      await this.releasePlace(scope);
      throw error;
    }
    this.onChange?.(scope);
    return doc;
  }

  /**
   * Takes one of the scope's MAX_RULES places: `$inc` of `rule_count` while it is below the limit.
   * A crash between a reservation and its insert, or between a delete and its release, leaves the
   * count one too high: the limit can only be reached early by that, never exceeded.
   */
  private async reservePlace(scope: { merchant_id: string; mode: 'test' | 'live' }): Promise<boolean> {
    const key = `${scope.merchant_id}:${scope.mode}`;
    await this.ensurePlaceCount(key, scope);
    const counter = await this.orders
      .findOneAndUpdate({ _id: key, rule_count: { $lt: MAX_RULES } }, { $inc: { rule_count: 1 } }, { new: true })
      .lean<RuleOrderDoc>();
    return counter !== null;
  }

  private async releasePlace(scope: { merchant_id: string; mode: 'test' | 'live' }): Promise<void> {
    await this.orders.updateOne({ _id: `${scope.merchant_id}:${scope.mode}`, rule_count: { $gt: 0 } }, { $inc: { rule_count: -1 } });
  }

  /**
   * Counters written before `rule_count` existed get it once from the rules there are. Every
   * insert follows a reservation, which follows this, so no rule can be inserted between the count
   * and its write; of racing first counts, the conditional write keeps one.
   */
  private async ensurePlaceCount(key: string, scope: { merchant_id: string; mode: 'test' | 'live' }): Promise<void> {
    if (await this.orders.exists({ _id: key, rule_count: { $exists: true } })) return;
    const count = await this.rules.countDocuments(scope);
    try {
      await this.orders.updateOne({ _id: key, rule_count: { $exists: false } }, { $set: { rule_count: count }, $setOnInsert: { seq: 0 } }, { upsert: true });
    } catch (error) {
      // Another first count created the counter between the filter and the upsert: it stands.
      if (!isDuplicateKeyError(error)) throw error;
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
    try {
      await this.releasePlace(this.scope(caller));
    } finally {
      this.onChange?.(this.scope(caller));
    }
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
    try {
      await this.rules.bulkWrite(
        ids.map((id, index) => ({
          updateOne: {
            filter: { _id: id, ...scope, order_seq: { $lt: seq } },
            update: { $set: { priority: index + 1, order_seq: seq, updated_at: now } },
          },
        })),
        { ordered: false },
      );
    } finally {
      // Also after a partial failure: some rules may have been written.
      this.onChange?.(scope);
    }
    return this.list(caller);
  }
}

const notFound = (id: string) => new AppError('not_found', { param: 'id', message: `Regra ${id} não encontrada neste modo.` });

const limitReached = () =>
  new AppError('parameter_invalid', { param: 'rules', message: `Limite de ${MAX_RULES} regras por modo atingido. Remova regras antigas.` });

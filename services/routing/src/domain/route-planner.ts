/**
 * Which connected accounts may take a payment, in which order, and why (ARCHITECTURE.md
 * "Failover"). Pure: no I/O. Steps:
 * 1. Eligibility (bot rule 5): enabled, takes the method, the customer data it requires is present
 *    (and, when the payment forces an account, only that one).
 * 2. Rules, by priority: the first enabled rule whose conditions match decides the order of its
 *    target accounts (an ordered list, or weighted percentages); with `fallback`, every other
 *    eligible account follows by priority. No rule matches: every eligible account by priority.
 * 3. Health: accounts whose breaker is open or half-open (on trial) or whose recent success rate
 *    collapsed go last.
 */
import { createHash } from 'node:crypto';

export type CustomerField = 'document' | 'email' | 'phone' | 'address';
export const CUSTOMER_FIELDS: readonly CustomerField[] = ['document', 'email', 'phone', 'address'];

export interface AccountView {
  id: string;
  provider: string;
  enabled: boolean;
  priority: number;
  methods: string[];
  /** "<method>:<field>" entries. */
  requires: string[];
  /** Methods whose details the account's provider collects on its own hosted page. */
  hostedCheckout: string[];
  /** The provider charges cards from the vault; and only with their security code. */
  vaultCards?: boolean;
  vaultCardsNeedCvc?: boolean;
  breakerState: string;
}

export interface HealthView {
  attempts: number;
  successes: number;
}

export interface RuleView {
  id: string;
  priority: number;
  enabled: boolean;
  conditions: {
    methods: string[];
    amount_min: number;
    amount_max: number;
    metadata: Array<{ key: string; value: string }>;
    customer_has: string[];
  };
  target: {
    type: string;
    accounts: string[];
    weights: Array<{ account_id: string; percentage: number }>;
    fallback: boolean;
  };
}

export interface PlanInput {
  method: string;
  amount: number;
  metadata: Record<string, string>;
  customerHas: Record<CustomerField, boolean>;
  forcedAccountId?: string;
  /** The charge completes on the provider's hosted checkout (card without card.token). */
  hostedCheckout?: boolean;
  /** A card from the vault (card.id or a card fields tok_), and whether its security code is gone. */
  vaultCard?: { withoutCvc: boolean };
  /** Source of randomness for weighted targets (injected for tests). */
  random: () => number;
  /** Recent attempts needed before a success rate is judged; MIN_ATTEMPTS_FOR_HEALTH by default. */
  healthMinAttempts?: number;
}

export interface Verdict {
  accountId: string;
  provider: string;
  verdict: 'chosen' | 'ranked_lower' | 'excluded';
  rank: number;
  reasons: string[];
  breakerState: string;
  successRate: number;
  recentAttempts: number;
}

export interface Plan {
  candidates: Array<{ account: AccountView; reason: string }>;
  verdicts: Verdict[];
  matchedRuleId: string;
  error?: { code: 'no_eligible_account' | 'parameter_missing' | 'account_not_enabled' | `missing_${CustomerField}`; param: string; message?: string };
}

/** pt-BR: a card payment without token, and no account that collects the card on its own page. */
export const HOSTED_CHECKOUT_MISSING =
  'Nenhuma conta conectada neste modo coleta os dados do cartão em checkout hospedado (ex.: Asaas). Envie card.token, gerado pelo formulário de cartão da conta, com provider_account_id, ou conecte uma conta com checkout hospedado.';

/** Below this many recent attempts the success rate is not judged. */
export const MIN_ATTEMPTS_FOR_HEALTH = 10;
/** A success rate below this ranks the account last. */
export const COLLAPSED_SUCCESS_RATE = 0.5;

export function missingFields(account: AccountView, method: string, has: Record<CustomerField, boolean>): CustomerField[] {
  return CUSTOMER_FIELDS.filter((field) => account.requires.includes(`${method}:${field}`) && !has[field]);
}

export function ruleMatches(rule: RuleView, input: PlanInput): boolean {
  const c = rule.conditions;
  if (c.methods.length > 0 && !c.methods.includes(input.method)) return false;
  if (c.amount_min > 0 && input.amount < c.amount_min) return false;
  if (c.amount_max > 0 && input.amount > c.amount_max) return false;
  for (const condition of c.metadata) {
    const value = input.metadata[condition.key];
    if (value === undefined) return false;
    if (condition.value !== '' && value !== condition.value) return false;
  }
  for (const field of c.customer_has) {
    if (!input.customerHas[field as CustomerField]) return false;
  }
  return true;
}

function healthOf(
  health: Map<string, HealthView>,
  id: string,
  minAttempts = MIN_ATTEMPTS_FOR_HEALTH,
): { rate: number; attempts: number; collapsed: boolean } {
  const view = health.get(id);
  if (!view || view.attempts < minAttempts) return { rate: -1, attempts: view?.attempts ?? 0, collapsed: false };
  const rate = view.successes / view.attempts;
  return { rate, attempts: view.attempts, collapsed: rate < COLLAPSED_SUCCESS_RATE };
}

/**
 * A weighted rule's draw for one payment: a number in [0, 1) fixed by the payment id (the first 48
 * bits of its SHA-256), so routing the same payment again draws the same account, while payments
 * spread over the weights as with a random draw (ids are unique and the hash is uniform).
 */
export function drawFor(paymentId: string): () => number {
  const value = createHash('sha256').update(paymentId).digest().readUIntBE(0, 6) / 2 ** 48;
  return () => value;
}

/** Weighted pick order: one account drawn by weight first, the rest by descending weight. */
function weightedOrder(weights: Array<{ account_id: string; percentage: number }>, random: () => number): string[] {
  const positive = weights.filter((w) => w.percentage > 0);
  const total = positive.reduce((sum, w) => sum + w.percentage, 0);
  if (total === 0) return [];
  let draw = random() * total;
  let first = positive[positive.length - 1]!.account_id;
  for (const w of positive) {
    draw -= w.percentage;
    if (draw < 0) {
      first = w.account_id;
      break;
    }
  }
  const rest = [...positive].sort((a, b) => b.percentage - a.percentage).map((w) => w.account_id).filter((id) => id !== first);
  return [first, ...rest];
}

export function planRoute(accounts: AccountView[], rules: RuleView[], health: Map<string, HealthView>, input: PlanInput): Plan {
  const excluded = new Map<string, string[]>();
  const exclude = (id: string, reason: string) => excluded.set(id, [...(excluded.get(id) ?? []), reason]);
  const byPriority = [...accounts].sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));

  for (const account of byPriority) {
    if (input.forcedAccountId && account.id !== input.forcedAccountId) exclude(account.id, 'another account was forced (provider_account_id)');
    if (!account.enabled) exclude(account.id, 'account disabled');
    if (!account.methods.includes(input.method)) exclude(account.id, `does not accept ${input.method}`);
    else if (input.hostedCheckout && !account.hostedCheckout.includes(input.method)) exclude(account.id, `no hosted checkout for ${input.method} (send card.token with provider_account_id)`);
    else if (input.vaultCard && !account.vaultCards) exclude(account.id, 'does not charge saved cards (vault)');
    else if (input.vaultCard?.withoutCvc && account.vaultCardsNeedCvc) exclude(account.id, 'needs the card security code, already deleted from the vault');
    for (const field of missingFields(account, input.method, input.customerHas)) exclude(account.id, `requires customer.${field} for ${input.method}`);
  }
  const eligible = byPriority.filter((account) => !excluded.has(account.id));

  let ordered: AccountView[] = eligible;
  const why = new Map<string, string>();
  let matchedRuleId = '';
  if (eligible.length > 0 && !input.forcedAccountId) {
    const rule = [...rules].filter((r) => r.enabled).sort((a, b) => a.priority - b.priority).find((r) => ruleMatches(r, input));
    if (rule) {
      matchedRuleId = rule.id;
      const targetIds = rule.target.type === 'weighted' ? weightedOrder(rule.target.weights, input.random) : rule.target.accounts;
      const inTarget = targetIds.map((id) => eligible.find((a) => a.id === id)).filter((a): a is AccountView => a !== undefined);
      for (const account of inTarget) why.set(account.id, `target of rule ${rule.id}`);
      const others = eligible.filter((a) => !inTarget.includes(a));
      if (rule.target.fallback) {
        for (const account of others) why.set(account.id, `fallback after rule ${rule.id}'s targets; priority ${account.priority}`);
        ordered = [...inTarget, ...others];
      } else {
        for (const account of others) exclude(account.id, `not a target of rule ${rule.id} (no fallback)`);
        ordered = inTarget;
      }
    }
  }
  for (const account of ordered) if (!why.has(account.id)) why.set(account.id, input.forcedAccountId ? 'forced by provider_account_id' : `eligible; priority ${account.priority}`);

  // Health-aware order: unhealthy accounts keep their relative order but go last.
  // A half-open breaker is still on trial (providers runs the trial itself): not yet healthy.
  const unhealthy = (a: AccountView) =>
    a.breakerState === 'open' || a.breakerState === 'half_open' || healthOf(health, a.id, input.healthMinAttempts).collapsed;
  const healthy = ordered.filter((a) => !unhealthy(a));
  const sick = ordered.filter(unhealthy);
  for (const account of sick) {
    const h = healthOf(health, account.id, input.healthMinAttempts);
    why.set(
      account.id,
      `${why.get(account.id)}; ranked last: ${
        account.breakerState === 'open'
          ? 'circuit breaker open'
          : account.breakerState === 'half_open'
            ? 'circuit breaker half-open (recovery trial running)'
            : `success rate ${(h.rate * 100).toFixed(0)}% over ${h.attempts} recent attempts`
      }`,
    );
  }
  const finalOrder = [...healthy, ...sick];

  const verdicts: Verdict[] = byPriority.map((account) => {
    const h = healthOf(health, account.id, input.healthMinAttempts);
    const rank = finalOrder.indexOf(account) + 1;
    return {
      accountId: account.id,
      provider: account.provider,
      verdict: rank === 0 ? 'excluded' : rank === 1 ? 'chosen' : 'ranked_lower',
      rank,
      reasons: rank === 0 ? (excluded.get(account.id) ?? []) : [why.get(account.id) ?? ''],
      breakerState: account.breakerState,
      successRate: h.rate,
      recentAttempts: h.attempts,
    };
  });

  const plan: Plan = { candidates: finalOrder.map((account) => ({ account, reason: why.get(account.id) ?? '' })), verdicts, matchedRuleId };
  if (finalOrder.length === 0) plan.error = explainEmpty(accounts, input);
  return plan;
}

/** The error that names what would let the payment through (bot rule 5). */
function explainEmpty(accounts: AccountView[], input: PlanInput): NonNullable<Plan['error']> {
  const takes = accounts.filter((a) => a.enabled && a.methods.includes(input.method) && (!input.forcedAccountId || a.id === input.forcedAccountId));
  if (input.vaultCard) {
    // Saved cards: no account that can charge this card now (spec §7 account_not_enabled).
    const vaultPool = takes.filter((a) => a.vaultCards && !(input.vaultCard?.withoutCvc && a.vaultCardsNeedCvc));
    if (vaultPool.length === 0) {
      return {
        code: 'account_not_enabled',
        param: 'card',
        message: input.vaultCard.withoutCvc && takes.some((a) => a.vaultCards)
          ? 'Nenhuma conta conectada pode cobrar este cartão agora: as que aceitam cartões salvos exigem o código de segurança, que já foi apagado. Peça ao cliente que cadastre o cartão de novo.'
          : 'Nenhuma conta conectada cobra cartões salvos neste modo. Conecte uma conta de um provedor com capabilities.card_vault (veja GET /v1/providers).',
      };
    }
  }
  const pool = input.hostedCheckout ? takes.filter((a) => a.hostedCheckout.includes(input.method)) : input.vaultCard ? takes.filter((a) => a.vaultCards) : takes;
  // Accounts take cards, but only with their own token: the payment lacks it (spec: card.token).
  if (pool.length === 0 && takes.length > 0) return { code: 'parameter_missing', param: 'card.token', message: HOSTED_CHECKOUT_MISSING };
  if (pool.length === 0) return { code: 'no_eligible_account', param: input.forcedAccountId ? 'provider_account_id' : 'method' };
  const counts = new Map<CustomerField, number>();
  for (const account of pool) for (const field of missingFields(account, input.method, input.customerHas)) counts.set(field, (counts.get(field) ?? 0) + 1);
  const field = CUSTOMER_FIELDS.filter((f) => counts.has(f)).sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0))[0];
  if (!field) return { code: 'no_eligible_account', param: 'method' };
  return { code: `missing_${field}`, param: `customer.${field}` };
}

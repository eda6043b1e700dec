import { drawFor, HOSTED_CHECKOUT_MISSING, planRoute, type AccountView, type HealthView, type PlanInput, type RuleView } from './route-planner';

const account = (overrides: Partial<AccountView>): AccountView => ({
  id: 'pa_a',
  provider: 'efi',
  enabled: true,
  priority: 10,
  methods: ['pix'],
  requires: [],
  hostedCheckout: [],
  breakerState: 'closed',
  ...overrides,
});
const nothing = { document: false, email: false, phone: false, address: false };
const input = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  method: 'pix',
  amount: 1000,
  metadata: {},
  customerHas: nothing,
  random: () => 0,
  ...overrides,
});
type RuleOverrides = Omit<Partial<RuleView>, 'target' | 'conditions'> & {
  target: Partial<RuleView['target']>;
  conditions?: Partial<RuleView['conditions']>;
};
const rule = ({ target, conditions, ...rest }: RuleOverrides): RuleView => ({
  id: 'rr_1',
  priority: 1,
  enabled: true,
  ...rest,
  conditions: { methods: [], amount_min: 0, amount_max: 0, metadata: [], customer_has: [], ...conditions },
  target: { type: 'accounts', accounts: [], weights: [], fallback: true, ...target },
});
const ids = (plan: ReturnType<typeof planRoute>) => plan.candidates.map((c) => c.account.id);
const noHealth = new Map<string, HealthView>();

describe('planRoute: eligibility', () => {
  it('orders eligible accounts by priority (lower first), then id', () => {
    const plan = planRoute([account({ id: 'pa_c', priority: 20 }), account({ id: 'pa_b' }), account({ id: 'pa_a' })], [], noHealth, input());
    expect(ids(plan)).toEqual(['pa_a', 'pa_b', 'pa_c']);
    expect(plan.verdicts.find((v) => v.accountId === 'pa_a')?.verdict).toBe('chosen');
    expect(plan.verdicts.find((v) => v.accountId === 'pa_c')?.verdict).toBe('ranked_lower');
  });

  it('excludes disabled accounts and those without the method, saying why', () => {
    const plan = planRoute([account({ id: 'pa_off', enabled: false }), account({ id: 'pa_boleto', methods: ['boleto'] }), account({ id: 'pa_ok' })], [], noHealth, input());
    expect(ids(plan)).toEqual(['pa_ok']);
    expect(plan.verdicts.find((v) => v.accountId === 'pa_off')).toMatchObject({ verdict: 'excluded', reasons: ['account disabled'] });
    expect(plan.verdicts.find((v) => v.accountId === 'pa_boleto')?.reasons).toEqual(['does not accept pix']);
  });

  it('says no account takes the method when none does', () => {
    expect(planRoute([account({ methods: ['boleto'] })], [], noHealth, input()).error).toEqual({ code: 'no_eligible_account', param: 'method' });
  });

  it('uses accounts that need no customer data and names the missing datum when none fits (bot rule 5)', () => {
    const needsDoc = account({ id: 'pa_doc', requires: ['pix:document'], priority: 1 });
    const needsEmail = account({ id: 'pa_mail', requires: ['pix:email'], priority: 2 });
    const free = account({ id: 'pa_free', priority: 5 });
    expect(ids(planRoute([needsDoc, free], [], noHealth, input()))).toEqual(['pa_free']);
    expect(planRoute([needsDoc], [], noHealth, input()).error).toEqual({ code: 'missing_document', param: 'customer.document' });
    expect(planRoute([needsEmail], [], noHealth, input()).error).toEqual({ code: 'missing_email', param: 'customer.email' });
    expect(ids(planRoute([needsDoc], [], noHealth, input({ customerHas: { ...nothing, document: true } })))).toEqual(['pa_doc']);
  });

  it('excludes a boleto account when the customer has no address, and says missing_address (not no_eligible_account)', () => {
    const boleto = account({ id: 'pa_boleto', provider: 'stripe', methods: ['pix', 'boleto'], requires: ['boleto:document', 'boleto:address'] });
    const withDocument = { ...nothing, document: true };
    const plan = planRoute([boleto], [], noHealth, input({ method: 'boleto', customerHas: withDocument }));
    expect(plan.error).toEqual({ code: 'missing_address', param: 'customer.address' });
    expect(plan.verdicts[0]).toMatchObject({ verdict: 'excluded', reasons: ['requires customer.address for boleto'] });
    // The address is required for boleto only: the same account still takes a Pix without it.
    expect(ids(planRoute([boleto], [], noHealth, input({ method: 'pix', customerHas: nothing })))).toEqual(['pa_boleto']);
    expect(ids(planRoute([boleto], [], noHealth, input({ method: 'boleto', customerHas: { ...withDocument, address: true } })))).toEqual(['pa_boleto']);
  });

  it('sends a card without token only to accounts with a hosted checkout; a token keeps every card account', () => {
    const stripe = account({ id: 'pa_stripe', provider: 'stripe', priority: 1, methods: ['pix', 'boleto', 'card'], requires: ['card:document'] });
    const asaas = account({ id: 'pa_asaas', provider: 'asaas', priority: 5, methods: ['pix', 'card'], requires: ['card:document'], hostedCheckout: ['card'] });
    const withDocument = { ...nothing, document: true };
    const hosted = planRoute([stripe, asaas], [], noHealth, input({ method: 'card', hostedCheckout: true, customerHas: withDocument }));
    expect(ids(hosted)).toEqual(['pa_asaas']);
    expect(hosted.verdicts.find((v) => v.accountId === 'pa_stripe')).toMatchObject({ verdict: 'excluded', reasons: ['no hosted checkout for card (send card.token with provider_account_id)'] });
    expect(ids(planRoute([stripe, asaas], [], noHealth, input({ method: 'card', customerHas: withDocument })))).toEqual(['pa_stripe', 'pa_asaas']);
    // Only token-card accounts: the payment lacks card.token, said in Portuguese.
    expect(planRoute([stripe], [], noHealth, input({ method: 'card', hostedCheckout: true, customerHas: withDocument })).error).toEqual({
      code: 'parameter_missing',
      param: 'card.token',
      message: HOSTED_CHECKOUT_MISSING,
    });
    // A hosted-checkout account that needs the document still names the document.
    expect(planRoute([stripe, asaas], [], noHealth, input({ method: 'card', hostedCheckout: true })).error).toEqual({ code: 'missing_document', param: 'customer.document' });
    // No card account at all: the method is not available.
    expect(planRoute([account({})], [], noHealth, input({ method: 'card', hostedCheckout: true })).error).toEqual({ code: 'no_eligible_account', param: 'method' });
  });

  it('sends a vault card only to accounts that charge vault cards, and one without its security code only to those that do not need it', () => {
    const stripe = account({ id: 'pa_stripe', provider: 'stripe', priority: 1, methods: ['card'], vaultCards: true, vaultCardsNeedCvc: false });
    const asaas = account({ id: 'pa_asaas', provider: 'asaas', priority: 2, methods: ['card'], vaultCards: true, vaultCardsNeedCvc: true });
    const efi = account({ id: 'pa_efi', provider: 'efi', priority: 0, methods: ['card'] });
    const withCvc = planRoute([efi, stripe, asaas], [], noHealth, input({ method: 'card', vaultCard: { withoutCvc: false } }));
    expect(ids(withCvc)).toEqual(['pa_stripe', 'pa_asaas']);
    expect(withCvc.verdicts.find((v) => v.accountId === 'pa_efi')).toMatchObject({ verdict: 'excluded', reasons: ['does not charge saved cards (vault)'] });
    const withoutCvc = planRoute([efi, stripe, asaas], [], noHealth, input({ method: 'card', vaultCard: { withoutCvc: true } }));
    expect(ids(withoutCvc)).toEqual(['pa_stripe']);
    expect(withoutCvc.verdicts.find((v) => v.accountId === 'pa_asaas')).toMatchObject({ verdict: 'excluded', reasons: ['needs the card security code, already deleted from the vault'] });
    // Nobody can charge it now: account_not_enabled (spec §7), saying why.
    const gone = planRoute([efi, asaas], [], noHealth, input({ method: 'card', vaultCard: { withoutCvc: true } })).error;
    expect(gone).toMatchObject({ code: 'account_not_enabled', param: 'card', message: expect.stringContaining('código de segurança') });
    expect(planRoute([efi], [], noHealth, input({ method: 'card', vaultCard: { withoutCvc: false } })).error).toMatchObject({ code: 'account_not_enabled', message: expect.stringContaining('card_vault') });
  });

  it('honours a forced account, and refuses a forced account that cannot take the payment', () => {
    const accounts = [account({ id: 'pa_a' }), account({ id: 'pa_b', priority: 1 })];
    expect(ids(planRoute(accounts, [], noHealth, input({ forcedAccountId: 'pa_a' })))).toEqual(['pa_a']);
    expect(planRoute(accounts, [], noHealth, input({ forcedAccountId: 'pa_x' })).error).toEqual({ code: 'no_eligible_account', param: 'provider_account_id' });
  });
});

describe('planRoute: rules', () => {
  const accounts = [account({ id: 'pa_a', priority: 1 }), account({ id: 'pa_b', priority: 2 }), account({ id: 'pa_c', priority: 3 })];

  it('puts the first matching rule’s targets first, then the rest as fallback', () => {
    const plan = planRoute(accounts, [rule({ target: { accounts: ['pa_c'] } })], noHealth, input());
    expect(ids(plan)).toEqual(['pa_c', 'pa_a', 'pa_b']);
    expect(plan.matchedRuleId).toBe('rr_1');
  });

  it('without fallback keeps only the targets', () => {
    const plan = planRoute(accounts, [rule({ target: { accounts: ['pa_b'], fallback: false } })], noHealth, input());
    expect(ids(plan)).toEqual(['pa_b']);
    expect(plan.verdicts.find((v) => v.accountId === 'pa_a')?.reasons[0]).toMatch(/no fallback/);
  });

  it('matches on method, amount range, metadata and customer data, by rule priority', () => {
    const rules = [
      rule({ id: 'rr_big', priority: 2, conditions: { amount_min: 10_000 }, target: { accounts: ['pa_b'] } }),
      rule({ id: 'rr_vip', priority: 1, conditions: { metadata: [{ key: 'tier', value: 'vip' }] }, target: { accounts: ['pa_c'] } }),
      rule({ id: 'rr_doc', priority: 3, conditions: { customer_has: ['document'], methods: ['pix'] }, target: { accounts: ['pa_c'] } }),
    ];
    expect(planRoute(accounts, rules, noHealth, input({ amount: 20_000 })).matchedRuleId).toBe('rr_big');
    expect(planRoute(accounts, rules, noHealth, input({ amount: 20_000, metadata: { tier: 'vip' } })).matchedRuleId).toBe('rr_vip');
    expect(planRoute(accounts, rules, noHealth, input({ metadata: { tier: 'basic' } })).matchedRuleId).toBe('');
    expect(planRoute(accounts, rules, noHealth, input({ customerHas: { ...nothing, document: true } })).matchedRuleId).toBe('rr_doc');
    expect(planRoute(accounts, [rule({ conditions: { methods: ['boleto'] }, target: { accounts: ['pa_c'] } })], noHealth, input()).matchedRuleId).toBe('');
  });

  it('skips disabled rules and ignores targets that are not eligible', () => {
    expect(planRoute(accounts, [rule({ enabled: false, target: { accounts: ['pa_c'] } })], noHealth, input()).matchedRuleId).toBe('');
    const withOff = [account({ id: 'pa_a', priority: 1 }), account({ id: 'pa_off', enabled: false })];
    expect(ids(planRoute(withOff, [rule({ target: { accounts: ['pa_off', 'pa_a'] } })], noHealth, input()))).toEqual(['pa_a']);
  });

  it('splits by weighted percentages', () => {
    const weighted = rule({ target: { type: 'weighted', weights: [{ account_id: 'pa_b', percentage: 70 }, { account_id: 'pa_c', percentage: 30 }] } });
    expect(ids(planRoute(accounts, [weighted], noHealth, input({ random: () => 0.1 })))).toEqual(['pa_b', 'pa_c', 'pa_a']);
    expect(ids(planRoute(accounts, [weighted], noHealth, input({ random: () => 0.8 })))).toEqual(['pa_c', 'pa_b', 'pa_a']);
    let seed = 1;
    const lcg = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const firsts = Array.from({ length: 2_000 }, () => ids(planRoute(accounts, [weighted], noHealth, input({ random: lcg })))[0]);
    const share = firsts.filter((id) => id === 'pa_b').length / firsts.length;
    expect(share).toBeGreaterThan(0.65);
    expect(share).toBeLessThan(0.75);
  });

  it('draws by the payment id: the same payment routed again gets the same first account, payments still split by weight', () => {
    const weighted = rule({ target: { type: 'weighted', weights: [{ account_id: 'pa_b', percentage: 70 }, { account_id: 'pa_c', percentage: 30 }] } });
    const paymentIds = Array.from({ length: 2_000 }, (_, i) => `pay_${i.toString(36).padStart(8, '0')}`);
    const firsts = paymentIds.map((id) => ids(planRoute(accounts, [weighted], noHealth, input({ random: drawFor(id) })))[0]);
    // Asked again, each payment draws what it drew the first time (a resumed create finds its first owner's account).
    expect(paymentIds.map((id) => ids(planRoute(accounts, [weighted], noHealth, input({ random: drawFor(id) })))[0])).toEqual(firsts);
    const share = firsts.filter((id) => id === 'pa_b').length / firsts.length;
    expect(share).toBeGreaterThan(0.65);
    expect(share).toBeLessThan(0.75);
    const draw = drawFor('pay_x')();
    expect(draw).toBeGreaterThanOrEqual(0);
    expect(draw).toBeLessThan(1);
  });
});

describe('planRoute: health-aware order', () => {
  it('ranks an account whose breaker is half-open (recovery trial running) last too', () => {
    const plan = planRoute([account({ id: 'pa_a', priority: 1, breakerState: 'half_open' }), account({ id: 'pa_b', priority: 2 })], [], noHealth, input());
    expect(plan.candidates.map((c) => c.account.id)).toEqual(['pa_b', 'pa_a']);
    expect(plan.verdicts.find((v) => v.accountId === 'pa_a')?.reasons[0]).toMatch(/half-open/);
  });

  it('ranks an account with an open breaker last, keeping it as a last resort', () => {
    const plan = planRoute([account({ id: 'pa_a', priority: 1, breakerState: 'open' }), account({ id: 'pa_b', priority: 2 })], [], noHealth, input());
    expect(ids(plan)).toEqual(['pa_b', 'pa_a']);
    expect(plan.verdicts.find((v) => v.accountId === 'pa_a')).toMatchObject({ verdict: 'ranked_lower', breakerState: 'open' });
    expect(plan.verdicts.find((v) => v.accountId === 'pa_a')?.reasons[0]).toMatch(/circuit breaker open/);
  });

  it('ranks an account whose success rate collapsed last, but only with enough data', () => {
    const accounts = [account({ id: 'pa_a', priority: 1 }), account({ id: 'pa_b', priority: 2 })];
    const collapsed = new Map([['pa_a', { attempts: 20, successes: 4 }]]);
    expect(ids(planRoute(accounts, [], collapsed, input()))).toEqual(['pa_b', 'pa_a']);
    const fewData = new Map([['pa_a', { attempts: 3, successes: 0 }]]);
    expect(ids(planRoute(accounts, [], fewData, input()))).toEqual(['pa_a', 'pa_b']);
    const healthy = new Map([['pa_a', { attempts: 20, successes: 19 }]]);
    const plan = planRoute(accounts, [], healthy, input());
    expect(ids(plan)).toEqual(['pa_a', 'pa_b']);
    expect(plan.verdicts[0]?.successRate).toBeCloseTo(0.95);
  });
});

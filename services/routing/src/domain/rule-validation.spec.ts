import { validateRule, type RuleDraft } from './rule-validation';

const connected = new Set(['pa_a', 'pa_b']);
const draft = (overrides: Partial<RuleDraft> = {}): RuleDraft => ({
  name: 'Pix grandes na conta B',
  conditions: { methods: ['pix'], amount_min: 10_000, amount_max: 0, metadata: [], customer_has: [] },
  target: { type: 'accounts', accounts: ['pa_b'], weights: [], fallback: true },
  ...overrides,
});
const param = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return (error as { param?: string }).param;
  }
  return 'no error';
};

describe('validateRule', () => {
  it('accepts a well-formed ordered or weighted rule', () => {
    expect(() => validateRule(draft(), connected)).not.toThrow();
    expect(() =>
      validateRule(draft({ target: { type: 'weighted', accounts: [], weights: [{ account_id: 'pa_a', percentage: 60 }, { account_id: 'pa_b', percentage: 40 }], fallback: true } }), connected),
    ).not.toThrow();
  });

  it('names the offending field', () => {
    expect(param(() => validateRule(draft({ name: ' ' }), connected))).toBe('name');
    expect(param(() => validateRule(draft({ conditions: { ...draft().conditions, methods: ['bitcoin'] } }), connected))).toBe('conditions.methods[0]');
    expect(param(() => validateRule(draft({ conditions: { ...draft().conditions, amount_min: 500, amount_max: 100 } }), connected))).toBe('conditions.amount_max');
    expect(param(() => validateRule(draft({ target: { ...draft().target, accounts: ['pa_a', 'pa_x'] } }), connected))).toBe('target.accounts[1]');
    expect(param(() => validateRule(draft({ target: { ...draft().target, accounts: [] } }), connected))).toBe('target.accounts');
    expect(
      param(() => validateRule(draft({ target: { type: 'weighted', accounts: [], weights: [{ account_id: 'pa_a', percentage: 60 }], fallback: true } }), connected)),
    ).toBe('target.weights');
    expect(param(() => validateRule(draft({ target: { ...draft().target, type: 'random' } }), connected))).toBe('target.type');
  });
});

import { protoRule } from '../testing/fixtures';
import { toRoutingRuleJson, toRuleInput, toUpdatedRuleInput } from './routing-rule.mapper';

describe('routing rule mapper', () => {
  it('sends null bounds and value-less metadata conditions as the proto "any" (0 and "")', () => {
    const input = toRuleInput({
      name: 'Qualquer curso',
      conditions: { amount_min: null, metadata: [{ key: 'product' }, { key: 'tier', value: null }] },
      target: { type: 'accounts', accounts: ['pa_a1'] },
    });
    expect(input.conditions).toEqual({ methods: [], amount_min: 0, amount_max: 0, metadata: [{ key: 'product', value: '' }, { key: 'tier', value: '' }], customer_has: [] });
    expect(input.target?.fallback).toBe(true);
  });

  it('reads back what it sent: GET output can be posted again', () => {
    const json = toRoutingRuleJson(protoRule({ conditions: { methods: [], amount_min: 0, amount_max: 0, metadata: [{ key: 'product', value: '' }], customer_has: [] } }));
    expect(json.conditions).toEqual({ methods: [], amount_min: null, amount_max: null, metadata: [{ key: 'product', value: null }], customer_has: [] });
  });

  it('shows a weighted target with its weights only', () => {
    const json = toRoutingRuleJson(protoRule({ target: { type: 'weighted', accounts: [], weights: [{ account_id: 'pa_a1', percentage: 100 }], fallback: false } }));
    expect(json.target).toEqual({ type: 'weighted', weights: [{ account_id: 'pa_a1', percentage: 100 }], fallback: false });
  });

  it('keeps the current rule where the update says nothing', () => {
    const current = protoRule();
    expect(toUpdatedRuleInput(current, { name: 'Novo nome' })).toEqual({
      name: 'Novo nome',
      conditions: current.conditions,
      target: current.target,
    });
    expect(toUpdatedRuleInput(current, { priority: 7, fallback: false }).target).toEqual({ ...current.target, fallback: false });
  });
});

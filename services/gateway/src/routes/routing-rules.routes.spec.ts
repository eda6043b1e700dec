import { status } from '@grpc/grpc-js';
import type { routing } from '@orquestra/contracts';
import { MESSAGES_PT_BR, RpcError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, protoRule } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };
const RULE = {
  name: 'Cursos pela Efí',
  conditions: { methods: ['pix'], amount_max: 50_000, metadata: [{ key: 'product', value: 'curso' }] },
  target: { type: 'accounts', accounts: ['pa_01jxyz'] },
};
const ruleNotFound = () => new RpcError('not_found', status.NOT_FOUND, { param: 'id', message: 'Regra rr_nope não encontrada neste modo.' });

describe('/v1/routing-rules', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  it('GET lists the rules in evaluation order, with 0 bounds and empty values as null', async () => {
    const listRules = jest.fn(async (_request: routing.ListRulesRequest) => ({ data: [protoRule()] }));
    clients.routing.listRules = listRules;
    const answer = await app.request('GET', '/v1/routing-rules', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(listRules.mock.calls[0]?.[0].caller).toMatchObject({ merchant_id: 'acct_1', restricted: false });
    expect(answer.json).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          id: 'rr_01jrule',
          object: 'routing_rule',
          mode: 'test',
          name: 'Cursos pela Efí',
          priority: 1,
          enabled: true,
          conditions: { methods: ['pix'], amount_min: null, amount_max: 50_000, metadata: [{ key: 'product', value: 'curso' }], customer_has: [] },
          target: { type: 'accounts', accounts: ['pa_01jxyz'], fallback: true },
          created_at: '2026-10-01T12:00:00.000Z',
          updated_at: '2026-10-01T12:00:00.000Z',
        },
      ],
    });
  });

  describe('POST /v1/routing-rules', () => {
    it('creates: 201, Location, and a RuleInput with fallback true unless told otherwise', async () => {
      const createRule = jest.fn(async (_request: routing.CreateRuleRequest) => ({ rule: protoRule() }));
      clients.routing.createRule = createRule;
      const answer = await app.request('POST', '/v1/routing-rules', { headers: FULL, body: RULE });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/routing-rules/rr_01jrule');
      expect(createRule.mock.calls[0]?.[0].rule).toEqual({
        name: 'Cursos pela Efí',
        conditions: { methods: ['pix'], amount_min: 0, amount_max: 50_000, metadata: [{ key: 'product', value: 'curso' }], customer_has: [] },
        target: { type: 'accounts', accounts: ['pa_01jxyz'], weights: [], fallback: true },
      });
    });

    it('sends weighted targets, the top-level fallback, priority and enabled', async () => {
      const createRule = jest.fn(async (_request: routing.CreateRuleRequest) => ({ rule: protoRule() }));
      clients.routing.createRule = createRule;
      await app.request('POST', '/v1/routing-rules', {
        headers: FULL,
        body: {
          name: 'Metade',
          priority: 2,
          enabled: false,
          fallback: false,
          target: { type: 'weighted', weights: [{ account_id: 'pa_a1', percentage: 50 }, { account_id: 'pa_b2', percentage: 50 }] },
        },
      });
      expect(createRule.mock.calls[0]?.[0].rule).toEqual({
        name: 'Metade',
        priority: 2,
        enabled: false,
        conditions: { methods: [], amount_min: 0, amount_max: 0, metadata: [], customer_has: [] },
        target: { type: 'weighted', accounts: [], weights: [{ account_id: 'pa_a1', percentage: 50 }, { account_id: 'pa_b2', percentage: 50 }], fallback: false },
      });
    });

    it.each([
      ['no name', { ...RULE, name: undefined }, 'parameter_missing', 'name', 'O campo name é obrigatório. Dê à regra um nome'],
      ['no target', { ...RULE, target: undefined }, 'parameter_missing', 'target', 'O campo target é obrigatório.'],
      ['a target without type', { ...RULE, target: { accounts: ['pa_01jxyz'] } }, 'parameter_missing', 'target.type', 'é obrigatório. Use um destes valores: accounts, weighted'],
      ['an unknown target type', { ...RULE, target: { type: 'random' } }, 'parameter_invalid', 'target.type', 'deve ser um destes valores: accounts, weighted'],
      ['an empty account list', { ...RULE, target: { type: 'accounts', accounts: [] } }, 'parameter_invalid', 'target.accounts', 'pelo menos 1 item'],
      ['an id that is not an account', { ...RULE, target: { type: 'accounts', accounts: ['pay_1'] } }, 'parameter_invalid', 'target.accounts[0]', 'conta conectada (pa_…)'],
      [
        'weights that do not sum 100',
        { ...RULE, target: { type: 'weighted', weights: [{ account_id: 'pa_a1', percentage: 60 }, { account_id: 'pa_b2', percentage: 30 }] } },
        'parameter_invalid',
        'target.weights',
        'devem somar 100 (somam 90)',
      ],
      ['amount_min over amount_max', { ...RULE, conditions: { amount_min: 500, amount_max: 100 } }, 'parameter_invalid', 'conditions.amount_max', 'maior ou igual a conditions.amount_min'],
      ['an unknown customer field', { ...RULE, conditions: { customer_has: ['cpf'] } }, 'parameter_invalid', 'conditions.customer_has[0]', 'document, email, phone, address'],
      ['conflicting fallbacks', { ...RULE, fallback: true, target: { type: 'accounts', accounts: ['pa_01jxyz'], fallback: false } }, 'parameter_invalid', 'fallback', 'Informe só um dos dois'],
    ])('refuses %s with a Portuguese error naming the param', async (_label, body, code, param, text) => {
      const answer = await app.request('POST', '/v1/routing-rules', { headers: FULL, body });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code, param });
      expect(answer.json.error.message).toContain(text);
    });

    it('passes on what only the routing service can check (a target account not connected in this mode)', async () => {
      clients.routing.createRule = async () => {
        throw new RpcError('parameter_invalid', status.INVALID_ARGUMENT, {
          param: 'target.accounts[0]',
          message: 'A conta pa_01jxyz não está conectada neste modo. Use um id de GET /v1/provider-accounts.',
        });
      };
      const answer = await app.request('POST', '/v1/routing-rules', { headers: FULL, body: RULE });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'parameter_invalid', param: 'target.accounts[0]', message: expect.stringContaining('não está conectada') });
    });
  });

  it('GET /:id answers the rule, or 404 with param id', async () => {
    clients.routing.getRule = async ({ rule_id }) => {
      if (rule_id !== 'rr_01jrule') throw ruleNotFound();
      return { rule: protoRule() };
    };
    expect((await app.request('GET', '/v1/routing-rules/rr_01jrule', { headers: FULL })).json).toMatchObject({ id: 'rr_01jrule', object: 'routing_rule' });
    const missing = await app.request('GET', '/v1/routing-rules/rr_nope', { headers: FULL });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'id' });
  });

  describe('POST /v1/routing-rules/:id', () => {
    it('lays the fields sent over the current rule (UpdateRule takes the whole rule)', async () => {
      clients.routing.getRule = async () => ({ rule: protoRule() });
      const updateRule = jest.fn(async (_request: routing.UpdateRuleRequest) => ({ rule: protoRule({ enabled: false }) }));
      clients.routing.updateRule = updateRule;
      const answer = await app.request('POST', '/v1/routing-rules/rr_01jrule', { headers: FULL, body: { enabled: false, fallback: false } });
      expect(answer.status).toBe(200);
      expect(answer.json.enabled).toBe(false);
      expect(updateRule.mock.calls[0]?.[0]).toMatchObject({
        rule_id: 'rr_01jrule',
        rule: {
          name: 'Cursos pela Efí',
          enabled: false,
          conditions: protoRule().conditions,
          target: { type: 'accounts', accounts: ['pa_01jxyz'], weights: [], fallback: false },
        },
      });
      expect(updateRule.mock.calls[0]?.[0].rule).not.toHaveProperty('priority');
    });

    it('replaces conditions and target as a whole when sent', async () => {
      clients.routing.getRule = async () => ({ rule: protoRule() });
      const updateRule = jest.fn(async (_request: routing.UpdateRuleRequest) => ({ rule: protoRule() }));
      clients.routing.updateRule = updateRule;
      await app.request('POST', '/v1/routing-rules/rr_01jrule', {
        headers: FULL,
        body: { conditions: { methods: ['boleto'] }, target: { type: 'accounts', accounts: ['pa_b2'] } },
      });
      expect(updateRule.mock.calls[0]?.[0].rule).toMatchObject({
        conditions: { methods: ['boleto'], amount_min: 0, amount_max: 0, metadata: [], customer_has: [] },
        target: { type: 'accounts', accounts: ['pa_b2'], fallback: true },
      });
    });

    it('refuses an empty body, and answers 404 for an unknown rule', async () => {
      const empty = await app.request('POST', '/v1/routing-rules/rr_01jrule', { headers: FULL, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.json.error).toMatchObject({ code: 'parameter_missing', message: expect.stringContaining('Informe ao menos um campo para alterar') });
      clients.routing.getRule = async () => {
        throw ruleNotFound();
      };
      const missing = await app.request('POST', '/v1/routing-rules/rr_nope', { headers: FULL, body: { enabled: true } });
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'id' });
    });
  });

  it('DELETE /:id answers the deleted marker, or 404', async () => {
    clients.routing.deleteRule = async ({ rule_id }) => {
      if (rule_id !== 'rr_01jrule') throw ruleNotFound();
      return { rule_id };
    };
    const deleted = await app.request('DELETE', '/v1/routing-rules/rr_01jrule', { headers: FULL });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ id: 'rr_01jrule', object: 'routing_rule', deleted: true });
    expect((await app.request('DELETE', '/v1/routing-rules/rr_nope', { headers: FULL })).status).toBe(404);
  });

  describe('POST /v1/routing-rules/reorder', () => {
    it('sends the ids in the order given and answers the rules in their new order', async () => {
      const reorderRules = jest.fn(async (_request: routing.ReorderRulesRequest) => ({
        data: [protoRule({ id: 'rr_b', priority: 1 }), protoRule({ id: 'rr_a', priority: 2 })],
      }));
      clients.routing.reorderRules = reorderRules;
      const answer = await app.request('POST', '/v1/routing-rules/reorder', { headers: FULL, body: { ids: ['rr_b', 'rr_a'] } });
      expect(answer.status).toBe(200);
      expect(reorderRules.mock.calls[0]?.[0].rule_ids).toEqual(['rr_b', 'rr_a']);
      expect(answer.json.data.map((rule: { id: string; priority: number }) => [rule.id, rule.priority])).toEqual([
        ['rr_b', 1],
        ['rr_a', 2],
      ]);
    });

    it.each([
      ['no ids', {}, 'parameter_missing', 'ids', 'O campo ids é obrigatório. Informe todos os ids das regras'],
      ['a repeated id', { ids: ['rr_a', 'rr_a'] }, 'parameter_invalid', 'ids[1]', 'aparece mais de uma vez'],
      ['an id that is not a rule', { ids: ['pa_a'] }, 'parameter_invalid', 'ids[0]', 'Informe o id de uma regra (rr_…)'],
    ])('refuses %s', async (_label, body, code, param, text) => {
      const answer = await app.request('POST', '/v1/routing-rules/reorder', { headers: FULL, body });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code, param, message: expect.stringContaining(text) });
    });

    it('passes on the routing service refusal of an incomplete list', async () => {
      clients.routing.reorderRules = async () => {
        throw new RpcError('parameter_invalid', status.INVALID_ARGUMENT, { param: 'rule_ids', message: 'Envie em rule_ids todos os ids das regras deste modo.' });
      };
      const answer = await app.request('POST', '/v1/routing-rules/reorder', { headers: FULL, body: { ids: ['rr_a'] } });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('parameter_invalid');
    });
  });

  it.each([
    ['GET', '/v1/routing-rules'],
    ['POST', '/v1/routing-rules'],
    ['POST', '/v1/routing-rules/reorder'],
    ['GET', '/v1/routing-rules/rr_01jrule'],
    ['POST', '/v1/routing-rules/rr_01jrule'],
    ['DELETE', '/v1/routing-rules/rr_01jrule'],
  ])('refuses restricted keys on %s %s with 403 restricted_key', async (method, path) => {
    const answer = await app.request(method, path, { headers: BOT, body: method === 'POST' ? RULE : undefined });
    expect(answer.status).toBe(403);
    expect(answer.json.error).toEqual({ type: 'permission_error', message: MESSAGES_PT_BR.restricted_key, code: 'restricted_key', param: null });
  });
});

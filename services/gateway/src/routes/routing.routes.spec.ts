import { status } from '@grpc/grpc-js';
import { common, type routing } from '@orquestra/contracts';
import { MESSAGES_PT_BR, RpcError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };

const SIMULATED: routing.SimulateResponse = {
  candidates: [{ account_id: 'pa_b2', provider: 'efi', priority: 20, reason: 'target of rule rr_1', fees: [] }],
  accounts: [
    {
      account_id: 'pa_b2',
      provider: 'efi',
      verdict: 'chosen',
      rank: 1,
      reasons: ['target of rule rr_1'],
      breaker_state: 'closed',
      success_rate: 0.95,
      recent_attempts: 40,
    },
    {
      account_id: 'pa_a1',
      provider: 'efi',
      verdict: 'excluded',
      rank: 0,
      reasons: ['account disabled'],
      breaker_state: 'open',
      success_rate: -1,
      recent_attempts: 2,
    },
  ],
  matched_rule_id: 'rr_1',
  error_code: '',
  error_param: '',
};

describe('POST /v1/routing/simulate', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  it('asks Simulate with the caller, method, amount, metadata and customer, and shows every verdict', async () => {
    const simulate = jest.fn(async (_request: routing.SimulateRequest) => SIMULATED);
    clients.routing.simulate = simulate;
    const answer = await app.request('POST', '/v1/routing/simulate', {
      headers: FULL,
      body: { method: 'pix', amount: 1990, metadata: { product: 'curso' }, customer: { document: '529.982.247-25' } },
    });
    expect(answer.status).toBe(200);
    expect(simulate.mock.calls[0]?.[0]).toEqual({
      caller: expect.objectContaining({ merchant_id: 'acct_1', mode: common.Mode.MODE_TEST }),
      method: 'pix',
      amount: 1990,
      metadata: { product: 'curso' },
      customer: { document: '52998224725' },
    });
    expect(simulate.mock.calls[0]?.[0].customer).toStrictEqual({ document: '52998224725' });
    expect(answer.json).toEqual({
      object: 'routing_simulation',
      candidates: [{ account_id: 'pa_b2', provider: 'efi', rank: 1, priority: 20, reason: 'target of rule rr_1' }],
      accounts: [
        {
          account_id: 'pa_b2',
          provider: 'efi',
          verdict: 'chosen',
          rank: 1,
          reasons: ['target of rule rr_1'],
          breaker_state: 'closed',
          success_rate: 0.95,
          recent_attempts: 40,
        },
        {
          account_id: 'pa_a1',
          provider: 'efi',
          verdict: 'excluded',
          rank: null,
          reasons: ['account disabled'],
          breaker_state: 'open',
          success_rate: null,
          recent_attempts: 2,
        },
      ],
      matched_rule_id: 'rr_1',
      error: null,
    });
  });

  it('sends no customer when none is given', async () => {
    const simulate = jest.fn(async (_request: routing.SimulateRequest) => SIMULATED);
    clients.routing.simulate = simulate;
    await app.request('POST', '/v1/routing/simulate', { headers: FULL, body: { method: 'boleto', amount: 5000 } });
    expect(simulate.mock.calls[0]?.[0]).toMatchObject({ method: 'boleto', amount: 5000, metadata: {}, customer: undefined });
  });

  it('shows "nobody would take it" as the error a payment would get, with a 200', async () => {
    clients.routing.simulate = async () => ({
      candidates: [],
      accounts: [{ ...SIMULATED.accounts[1]!, reasons: ['requires customer.document for pix'] }],
      matched_rule_id: '',
      error_code: 'missing_document',
      error_param: 'customer.document',
    });
    const answer = await app.request('POST', '/v1/routing/simulate', { headers: FULL, body: { method: 'pix', amount: 100 } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      candidates: [],
      matched_rule_id: null,
      error: { code: 'missing_document', param: 'customer.document', message: MESSAGES_PT_BR.missing_document },
    });
  });

  it.each([
    ['no method', { amount: 100 }, 'parameter_missing', 'method', 'O campo method é obrigatório. Use pix, card ou boleto.'],
    ['an unknown method', { method: 'ted', amount: 100 }, 'parameter_invalid', 'method', 'pix, card, boleto'],
    ['no amount', { method: 'pix' }, 'parameter_missing', 'amount', 'O campo amount é obrigatório. Informe o valor em centavos'],
    ['amount 0', { method: 'pix', amount: 0 }, 'amount_too_small', 'amount', 'maior ou igual a 1'],
    ['amount with cents as decimals', { method: 'pix', amount: 19.9 }, 'parameter_invalid', 'amount', 'número inteiro'],
    ['metadata that is not text', { method: 'pix', amount: 100, metadata: { n: 1 } }, 'metadata_invalid', 'metadata.n', 'valores de texto'],
    ['a bad customer document', { method: 'pix', amount: 100, customer: { document: '123' } }, 'parameter_invalid', 'customer.document', 'confira os dígitos verificadores'],
    ['an unknown field', { method: 'pix', amount: 100, provider_account_id: 'pa_1' }, 'parameter_invalid', 'provider_account_id', 'não existe'],
  ])('refuses %s with a Portuguese error naming the param', async (_label, body, code, param, text) => {
    const answer = await app.request('POST', '/v1/routing/simulate', { headers: FULL, body });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(answer.json.error.message).toContain(text);
  });

  it('answers 503 when the routing service is down', async () => {
    clients.routing.simulate = async () => {
      throw new RpcError('service_unavailable', status.UNAVAILABLE, { message: MESSAGES_PT_BR.service_unavailable });
    };
    const answer = await app.request('POST', '/v1/routing/simulate', { headers: FULL, body: { method: 'pix', amount: 100 } });
    expect(answer.status).toBe(503);
    expect(answer.json.error.code).toBe('service_unavailable');
  });

  it('refuses restricted keys with 403 restricted_key', async () => {
    const answer = await app.request('POST', '/v1/routing/simulate', { headers: BOT, body: { method: 'pix', amount: 100 } });
    expect(answer.status).toBe(403);
    expect(answer.json.error).toEqual({ type: 'permission_error', message: MESSAGES_PT_BR.restricted_key, code: 'restricted_key', param: null });
  });
});

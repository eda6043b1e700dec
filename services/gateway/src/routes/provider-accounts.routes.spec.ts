import { status } from '@grpc/grpc-js';
import { common, type providers } from '@orquestra/contracts';
import { MESSAGES_PT_BR, RpcError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, protoAccount } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };
const CONNECT = {
  provider: 'efi',
  name: 'Efí principal',
  credentials: { client_id: 'Client_Id_abc123', client_secret: 'Client_Secret_xyz789' },
  priority: 5,
  fees: [{ method: 'pix', percentage: 0.99, fixed: 10 }],
};
const notFound = () => new RpcError('not_found', status.NOT_FOUND, { param: 'provider_account_id', message: MESSAGES_PT_BR.not_found });

describe('/v1/provider-accounts', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  describe('GET /v1/provider-accounts', () => {
    it('lists the accounts of the key merchant and mode, with last-4 only and fees as percentages', async () => {
      const listAccounts = jest.fn(async (_request: providers.ListAccountsRequest) => ({ accounts: [protoAccount()] }));
      clients.providers.listAccounts = listAccounts;
      const answer = await app.request('GET', '/v1/provider-accounts', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(listAccounts.mock.calls[0]?.[0]).toEqual({ merchant_id: 'acct_1', mode: common.Mode.MODE_TEST });
      expect(answer.json).toEqual({
        object: 'list',
        has_more: false,
        data: [
          {
            id: 'pa_01jxyz',
            object: 'provider_account',
            mode: 'test',
            provider: 'efi',
            name: 'Efí sandbox',
            priority: 10,
            enabled: true,
            methods: ['pix'],
            customer_requires: { pix: ['document'] },
            fees: [{ method: 'pix', percentage: 0.99, fixed: 0 }],
            credentials_last4: { client_id: 'c123', client_secret: 'x789' },
            breaker_state: 'closed',
            keeps_metadata: true,
            webhook_url: null,
            webhook_manual_setup: false,
            created_at: '2026-10-01T12:00:00.000Z',
            updated_at: '2026-10-01T12:00:01.000Z',
          },
        ],
      });
    });

    it('shows the webhook address only when the owner must paste it at the provider', async () => {
      clients.providers.listAccounts = async () => ({ accounts: [protoAccount({ webhook_manual_setup: true })] });
      const answer = await app.request('GET', '/v1/provider-accounts', { headers: FULL });
      expect(answer.json.data[0]).toMatchObject({ webhook_manual_setup: true, webhook_url: expect.stringContaining('/webhooks/providers/pa_01jxyz') });
    });
  });

  describe('POST /v1/provider-accounts', () => {
    it('connects: 201, Location, and ConnectAccount in the key mode with fees in basis points', async () => {
      const connectAccount = jest.fn(async (_request: providers.ConnectAccountRequest) => ({ account: protoAccount() }));
      clients.providers.connectAccount = connectAccount;
      const answer = await app.request('POST', '/v1/provider-accounts', { headers: FULL, body: CONNECT });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/provider-accounts/pa_01jxyz');
      expect(answer.json).toMatchObject({ id: 'pa_01jxyz', object: 'provider_account' });
      expect(answer.text).not.toContain('Client_Secret_xyz789');
      expect(connectAccount.mock.calls[0]?.[0]).toEqual({
        merchant_id: 'acct_1',
        mode: common.Mode.MODE_TEST,
        provider: 'efi',
        name: 'Efí principal',
        priority: 5,
        enabled: true,
        credentials: CONNECT.credentials,
        fees: [{ method: 'pix', percent_bps: 99, fixed: 10 }],
      });
    });

    it('fills the defaults: priority 10, enabled, no fees, name chosen by the providers service', async () => {
      const connectAccount = jest.fn(async (_request: providers.ConnectAccountRequest) => ({ account: protoAccount() }));
      clients.providers.connectAccount = connectAccount;
      await app.request('POST', '/v1/provider-accounts', { headers: FULL, body: { provider: 'efi', credentials: { client_id: 'a' } } });
      expect(connectAccount.mock.calls[0]?.[0]).toMatchObject({ name: '', priority: 10, enabled: true, fees: [] });
    });

    it.each([
      ['no provider', { ...CONNECT, provider: undefined }, 'parameter_missing', 'provider', 'O campo provider é obrigatório. Informe o código do provedor'],
      ['no credentials', { ...CONNECT, credentials: undefined }, 'parameter_missing', 'credentials', 'O campo credentials é obrigatório.'],
      ['empty credentials', { ...CONNECT, credentials: {} }, 'parameter_missing', 'credentials', 'O campo credentials está vazio.'],
      ['a credential that is not text', { ...CONNECT, credentials: { client_id: 123 } }, 'parameter_invalid', 'credentials.client_id', 'deve ser um texto'],
      ['a percentage with 3 decimals', { ...CONNECT, fees: [{ method: 'pix', percentage: 0.999, fixed: 0 }] }, 'parameter_invalid', 'fees[0].percentage', 'no máximo duas casas decimais'],
      ['a percentage over 100', { ...CONNECT, fees: [{ method: 'pix', percentage: 101, fixed: 0 }] }, 'parameter_invalid', 'fees[0].percentage', 'menor ou igual a 100'],
      ['a fixed fee in fractions of a cent', { ...CONNECT, fees: [{ method: 'pix', percentage: 1, fixed: 1.5 }] }, 'parameter_invalid', 'fees[0].fixed', 'número inteiro'],
      ['an unknown fee method', { ...CONNECT, fees: [{ method: 'ted', percentage: 1 }] }, 'parameter_invalid', 'fees[0].method', 'pix, card, boleto'],
      [
        'two fees for one method',
        { ...CONNECT, fees: [{ method: 'pix', percentage: 1 }, { method: 'pix', percentage: 2 }] },
        'parameter_invalid',
        'fees[1].method',
        'aparece mais de uma vez',
      ],
      ['priority 0', { ...CONNECT, priority: 0 }, 'parameter_invalid', 'priority', 'maior ou igual a 1'],
      ['an unknown field', { ...CONNECT, mode: 'live' }, 'parameter_invalid', 'mode', 'não existe'],
    ])('refuses %s with a Portuguese error naming the param', async (_label, body, code, param, text) => {
      const answer = await app.request('POST', '/v1/provider-accounts', { headers: FULL, body });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code, param });
      expect(answer.json.error.message).toContain(text);
    });

    it('accepts percentages whose float form is noisy (0.29 → 29 bps)', async () => {
      const connectAccount = jest.fn(async (_request: providers.ConnectAccountRequest) => ({ account: protoAccount() }));
      clients.providers.connectAccount = connectAccount;
      const answer = await app.request('POST', '/v1/provider-accounts', {
        headers: FULL,
        body: { ...CONNECT, fees: [{ method: 'pix', percentage: 0.29 }, { method: 'boleto', percentage: 1.15, fixed: 349 }] },
      });
      expect(answer.status).toBe(201);
      expect(connectAccount.mock.calls[0]?.[0].fees).toEqual([
        { method: 'pix', percent_bps: 29, fixed: 0 },
        { method: 'boleto', percent_bps: 115, fixed: 349 },
      ]);
    });

    it('passes on invalid_credentials (400) and the providers service field errors', async () => {
      clients.providers.connectAccount = async () => {
        throw new RpcError('invalid_credentials', status.INVALID_ARGUMENT, { param: 'credentials', message: MESSAGES_PT_BR.invalid_credentials });
      };
      const refused = await app.request('POST', '/v1/provider-accounts', { headers: FULL, body: CONNECT });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toEqual({
        type: 'invalid_request_error',
        message: MESSAGES_PT_BR.invalid_credentials,
        code: 'invalid_credentials',
        param: 'credentials',
      });
      clients.providers.connectAccount = async () => {
        throw new RpcError('parameter_missing', status.INVALID_ARGUMENT, { param: 'credentials.certificate', message: 'Informe credentials.certificate.' });
      };
      const missing = await app.request('POST', '/v1/provider-accounts', { headers: FULL, body: CONNECT });
      expect(missing.json.error).toMatchObject({ code: 'parameter_missing', param: 'credentials.certificate' });
    });

    it('answers 503 when the provider cannot be reached while checking the credentials', async () => {
      clients.providers.connectAccount = async () => {
        throw new RpcError('provider_unavailable', status.UNAVAILABLE, { message: MESSAGES_PT_BR.provider_unavailable });
      };
      expect((await app.request('POST', '/v1/provider-accounts', { headers: FULL, body: CONNECT })).status).toBe(503);
    });
  });

  describe('GET /v1/provider-accounts/:id', () => {
    it('answers the account, or 404 not_found with param id', async () => {
      clients.providers.getAccount = async ({ account_id }) => {
        if (account_id !== 'pa_01jxyz') throw notFound();
        return { account: protoAccount() };
      };
      const found = await app.request('GET', '/v1/provider-accounts/pa_01jxyz', { headers: FULL });
      expect(found.json).toMatchObject({ id: 'pa_01jxyz', object: 'provider_account' });
      const missing = await app.request('GET', '/v1/provider-accounts/pa_nope', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found', param: 'id' });
      const impossible = await app.request('GET', '/v1/provider-accounts/pa%20x%3B', { headers: FULL });
      expect(impossible.status).toBe(404);
    });
  });

  describe('POST /v1/provider-accounts/:id', () => {
    it('changes only what is sent (fees untouched unless sent)', async () => {
      const updateAccount = jest.fn(async (_request: providers.UpdateAccountRequest) => ({ account: protoAccount({ priority: 3 }) }));
      clients.providers.updateAccount = updateAccount;
      const answer = await app.request('POST', '/v1/provider-accounts/pa_01jxyz', { headers: FULL, body: { priority: 3 } });
      expect(answer.status).toBe(200);
      expect(answer.json.priority).toBe(3);
      expect(updateAccount.mock.calls[0]?.[0]).toEqual({
        merchant_id: 'acct_1',
        mode: common.Mode.MODE_TEST,
        account_id: 'pa_01jxyz',
        priority: 3,
        set_fees: false,
        fees: [],
      });
    });

    it('replaces the fees when sent (an empty list clears them)', async () => {
      const updateAccount = jest.fn(async (_request: providers.UpdateAccountRequest) => ({ account: protoAccount() }));
      clients.providers.updateAccount = updateAccount;
      await app.request('POST', '/v1/provider-accounts/pa_01jxyz', { headers: FULL, body: { name: 'Nova', enabled: false, fees: [] } });
      expect(updateAccount.mock.calls[0]?.[0]).toMatchObject({ name: 'Nova', enabled: false, set_fees: true, fees: [] });
    });

    it('refuses an empty body with parameter_missing and says which fields can change', async () => {
      const answer = await app.request('POST', '/v1/provider-accounts/pa_01jxyz', { headers: FULL, body: {} });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'parameter_missing', param: null });
      expect(answer.json.error.message).toContain('Informe ao menos um campo para alterar: name, priority, enabled ou fees.');
    });

    it('refuses a credentials change by name: the providers service checks credentials only on connect', async () => {
      const answer = await app.request('POST', '/v1/provider-accounts/pa_01jxyz', { headers: FULL, body: { credentials: { client_id: 'x' } } });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'parameter_invalid', param: 'credentials' });
      expect(answer.json.error.message).toContain('Conecte a conta de novo com POST /v1/provider-accounts');
    });

    it('answers 404 with param id for an unknown account', async () => {
      clients.providers.updateAccount = async () => {
        throw notFound();
      };
      const answer = await app.request('POST', '/v1/provider-accounts/pa_nope', { headers: FULL, body: { priority: 3 } });
      expect(answer.status).toBe(404);
      expect(answer.json.error).toMatchObject({ code: 'not_found', param: 'id' });
    });
  });

  describe('POST /v1/provider-accounts/:id/disable and /enable', () => {
    it.each([
      ['disable', false],
      ['enable', true],
    ])('%s sends only enabled = %s', async (action, enabled) => {
      const updateAccount = jest.fn(async (_request: providers.UpdateAccountRequest) => ({ account: protoAccount({ enabled }) }));
      clients.providers.updateAccount = updateAccount;
      const answer = await app.request('POST', `/v1/provider-accounts/pa_01jxyz/${action}`, { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json.enabled).toBe(enabled);
      expect(updateAccount.mock.calls[0]?.[0]).toEqual({
        merchant_id: 'acct_1',
        mode: common.Mode.MODE_TEST,
        account_id: 'pa_01jxyz',
        enabled,
        set_fees: false,
        fees: [],
      });
    });
  });

  describe('restricted keys (§5.4: no provider accounts)', () => {
    it.each([
      ['GET', '/v1/provider-accounts'],
      ['POST', '/v1/provider-accounts'],
      ['GET', '/v1/provider-accounts/pa_01jxyz'],
      ['POST', '/v1/provider-accounts/pa_01jxyz'],
      ['POST', '/v1/provider-accounts/pa_01jxyz/disable'],
      ['POST', '/v1/provider-accounts/pa_01jxyz/enable'],
    ])('get 403 restricted_key on %s %s, before any body check or downstream call', async (method, path) => {
      const answer = await app.request(method, path, { headers: BOT, body: method === 'POST' ? { nonsense: true } : undefined });
      expect(answer.status).toBe(403);
      expect(answer.json.error).toEqual({ type: 'permission_error', message: MESSAGES_PT_BR.restricted_key, code: 'restricted_key', param: null });
    });
  });
});

import { AppError, type CallOptions } from '@orquestra/platform';
import type { payouts } from '@orquestra/contracts';
import { toPayoutJson } from '../mappers/payout.mapper';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, TEST_SETTINGS, protoPayout } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };
const CREATE = { ...FULL, 'idempotency-key': 'saque-1' };
const PATH = '/v1/subaccounts/sub_01jsub/withdrawals';
const BODY = { amount: 15000 };

/** A withdrawal as the payouts service answers it. */
const withdrawal = (overrides: Partial<payouts.Payout> = {}): payouts.Payout =>
  protoPayout({
    subaccount_id: 'sub_01jsub',
    destination: { type: 'subaccount', destination_id: '', key_type: '', key: '', label: '' },
    amount_requested: 15000,
    description: 'Saque semanal',
    metadata: {},
    ...overrides,
  });

describe('subaccount withdrawal routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  describe('POST /v1/subaccounts/{id}/withdrawals', () => {
    it('creates with the caller, the key, the subaccount and the body hash under the payment deadline; 201 with the public payout', async () => {
      const seen: Array<{ request: payouts.CreateWithdrawalRequest; options: CallOptions | undefined }> = [];
      clients.payouts.createWithdrawal = async (request, options) => {
        seen.push({ request, options });
        return { payout: withdrawal(), replayed: false };
      };
      const answer = await app.request('POST', PATH, { headers: CREATE, body: { ...BODY, description: 'Saque semanal', metadata: { lote: '7' } } });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/payouts/po_01jpo');
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.json).toEqual({
        id: 'po_01jpo',
        object: 'payout',
        mode: 'test',
        status: 'processing',
        amount: 15000,
        amount_requested: 15000,
        whole_balance: false,
        fee: null,
        currency: 'BRL',
        provider: 'asaas',
        provider_account_id: 'pa_01jxyz',
        subaccount_id: 'sub_01jsub',
        destination: { type: 'subaccount' },
        uncertain: false,
        description: 'Saque semanal',
        metadata: {},
        failure_code: null,
        failure_reason: null,
        paid_at: null,
        created_at: '2026-12-01T12:00:00.000Z',
        updated_at: '2026-12-01T12:00:01.000Z',
      });
      expect(seen[0]?.request).toEqual({
        caller: expect.objectContaining({ merchant_id: 'acct_1', key_id: 'key_full', restricted: false }),
        idempotency_key: 'saque-1',
        request_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        subaccount_id: 'sub_01jsub',
        amount: 15000,
        description: 'Saque semanal',
        metadata: { lote: '7' },
      });
      expect(seen[0]?.options?.deadlineMs).toBe(TEST_SETTINGS.createPaymentDeadlineMs);
    });

    it('shows a whole-balance withdrawal as the provider made it: amount what left, amount_requested what was asked', async () => {
      clients.payouts.createWithdrawal = async () => ({ payout: withdrawal({ amount: 7777, amount_requested: 15000, whole_balance: true }), replayed: false });
      const answer = await app.request('POST', PATH, { headers: CREATE, body: BODY });
      expect(answer.json).toMatchObject({ amount: 7777, amount_requested: 15000, whole_balance: true, subaccount_id: 'sub_01jsub' });
    });

    it('says when the key replayed; the same body on the same subaccount hashes the same, on another subaccount not', async () => {
      const hashes: string[] = [];
      clients.payouts.createWithdrawal = async (request) => {
        hashes.push(request.request_hash);
        return { payout: withdrawal(), replayed: hashes.length > 1 };
      };
      await app.request('POST', PATH, { headers: CREATE, body: { ...BODY, description: 'a' } });
      const replay = await app.request('POST', PATH, { headers: CREATE, body: { description: 'a', amount: 15000 } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(hashes[1]).toBe(hashes[0]);
      await app.request('POST', '/v1/subaccounts/sub_01jother/withdrawals', { headers: CREATE, body: { ...BODY, description: 'a' } });
      expect(hashes[2]).not.toBe(hashes[0]);
    });

    it('requires the Idempotency-Key (the payouts route\'s error), in Portuguese, without calling the service', async () => {
      let called = false;
      clients.payouts.createWithdrawal = async () => {
        called = true;
        return { payout: withdrawal(), replayed: false };
      };
      const missing = await app.request('POST', PATH, { headers: FULL, body: BODY });
      expect(missing.status).toBe(400);
      expect(missing.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: 'Idempotency-Key',
        message: expect.stringMatching(/cabeçalho Idempotency-Key.*obrigatório.*saque/s),
      });
      const bad = await app.request('POST', PATH, { headers: { ...FULL, 'idempotency-key': 'com espaço' }, body: BODY });
      expect(bad.json.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
      expect(called).toBe(false);
    });

    it('refuses a bad body in Portuguese with the param, without calling the service (the destination is never the caller\'s)', async () => {
      let called = false;
      clients.payouts.createWithdrawal = async () => {
        called = true;
        return { payout: withdrawal(), replayed: false };
      };
      const cases: Array<[object, string, string]> = [
        [{ amount: 0 }, 'amount_too_small', 'amount'],
        [{ amount: 10.5 }, 'parameter_invalid', 'amount'],
        [{ amount: '150' }, 'parameter_invalid', 'amount'],
        [{}, 'parameter_missing', 'amount'],
        [{ ...BODY, description: 'x'.repeat(141) }, 'parameter_invalid', 'description'],
        [{ ...BODY, metadata: { lote: 7 } }, 'metadata_invalid', 'metadata.lote'],
        [{ ...BODY, destination: { type: 'pix_key', destination_id: 'pdest_1' } }, 'parameter_invalid', 'destination'],
      ];
      for (const [body, code, param] of cases) {
        const answer = await app.request('POST', PATH, { headers: CREATE, body });
        expect({ status: answer.status, code: answer.json.error.code, param: answer.json.error.param }).toEqual({ status: 400, code, param });
        expect(answer.json.error.message).toMatch(/[ãçéó]|O campo/);
      }
      expect(called).toBe(false);
    });

    it("answers the service's refusals as they are: unknown subaccount 404, not active 409, payouts off 403, conflict 409, balance 422", async () => {
      const refusals: Array<[AppError, number]> = [
        [new AppError('not_found', { param: 'id', message: 'Não existe subconta sub_01jsub neste modo.' }), 404],
        [new AppError('subaccount_not_active', { param: 'id', message: 'A subconta sub_01jsub está pending.' }), 409],
        [new AppError('payouts_api_disabled'), 403],
        [new AppError('idempotency_conflict', { param: 'Idempotency-Key' }), 409],
        [new AppError('insufficient_balance', { param: 'amount', message: 'Saldo insuficiente na subconta.' }), 422],
      ];
      for (const [error, status] of refusals) {
        clients.payouts.createWithdrawal = async () => {
          throw error;
        };
        const answer = await app.request('POST', PATH, { headers: CREATE, body: BODY });
        expect(answer.status).toBe(status);
        expect(answer.json.error).toMatchObject({ code: error.code, message: error.message, param: error.param ?? null });
      }
    });
  });

  describe('GET /v1/subaccounts/{id}/withdrawals', () => {
    it('passes the subaccount and the page, and answers the withdrawals as payouts', async () => {
      const seen: payouts.ListWithdrawalsRequest[] = [];
      clients.payouts.listWithdrawals = async (request) => {
        seen.push(request);
        return { data: [withdrawal({ status: 'paid', paid_at: '2026-12-01T12:05:00.000Z' })], has_more: true };
      };
      const answer = await app.request('GET', `${PATH}?limit=2&starting_after=po_0`, { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ object: 'list', has_more: true, data: [{ id: 'po_01jpo', object: 'payout', status: 'paid', subaccount_id: 'sub_01jsub', destination: { type: 'subaccount' } }] });
      expect(seen[0]).toEqual({ caller: expect.objectContaining({ merchant_id: 'acct_1' }), subaccount_id: 'sub_01jsub', limit: 2, starting_after: 'po_0' });
    });

    it('sends the default limit, refuses a bad one or an unknown parameter', async () => {
      const seen: payouts.ListWithdrawalsRequest[] = [];
      clients.payouts.listWithdrawals = async (request) => {
        seen.push(request);
        return { data: [], has_more: false };
      };
      expect((await app.request('GET', PATH, { headers: FULL })).json).toEqual({ object: 'list', data: [], has_more: false });
      expect(seen[0]).toMatchObject({ limit: 10, starting_after: '' });
      expect((await app.request('GET', `${PATH}?limit=101`, { headers: FULL })).json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
      expect((await app.request('GET', `${PATH}?status=paid`, { headers: FULL })).json.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
      expect(seen).toHaveLength(1);
    });
  });

  it('refuses a restricted key on both routes with 403 restricted_key, without calling the service', async () => {
    const calls: string[] = [];
    clients.payouts.createWithdrawal = async () => {
      calls.push('create');
      throw new Error('must not be called');
    };
    clients.payouts.listWithdrawals = async () => {
      calls.push('list');
      throw new Error('must not be called');
    };
    const post = await app.request('POST', PATH, { headers: { ...RESTRICTED, 'idempotency-key': 'k' }, body: BODY });
    const get = await app.request('GET', PATH, { headers: RESTRICTED });
    expect([post.status, post.json.error.code, get.status, get.json.error.code]).toEqual([403, 'restricted_key', 403, 'restricted_key']);
    expect(calls).toEqual([]);
    expect((await app.request('GET', PATH)).status).toBe(401);
  });

  it('shows amount_requested and whole_balance on withdrawals only', () => {
    const payout = toPayoutJson(protoPayout());
    expect(payout).not.toHaveProperty('amount_requested');
    expect(payout).not.toHaveProperty('whole_balance');
    expect(payout).not.toHaveProperty('subaccount_id');
    expect(toPayoutJson(withdrawal())).toMatchObject({ subaccount_id: 'sub_01jsub', amount_requested: 15000, whole_balance: false, destination: { type: 'subaccount' } });
  });
});

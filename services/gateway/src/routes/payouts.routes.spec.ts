import { AppError, type CallOptions } from '@orquestra/platform';
import type { payouts } from '@orquestra/contracts';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, TEST_SETTINGS, protoPayout } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };
const BODY = { provider_account_id: 'pa_01jxyz', amount: 15000, destination: { type: 'pix_key', destination_id: 'pdest_01jdst' } };
const CREATE = { ...FULL, 'idempotency-key': 'repasse-1' };

describe('payout routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  describe('POST /v1/payouts', () => {
    it('creates with the caller, the key and the body hash under the payment deadline; 201 with Location and the public payout', async () => {
      const seen: Array<{ request: payouts.CreatePayoutRequest; options: CallOptions | undefined }> = [];
      clients.payouts.createPayout = async (request, options) => {
        seen.push({ request, options });
        return { payout: protoPayout(), replayed: false };
      };
      const answer = await app.request('POST', '/v1/payouts', { headers: CREATE, body: { ...BODY, description: 'Retirada semanal', metadata: { week: '48' } } });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/payouts/po_01jpo');
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.json).toEqual({
        id: 'po_01jpo',
        object: 'payout',
        mode: 'test',
        status: 'processing',
        amount: 15000,
        fee: null,
        currency: 'BRL',
        provider: 'asaas',
        provider_account_id: 'pa_01jxyz',
        destination: { type: 'pix_key', destination_id: 'pdest_01jdst', key_type: 'email', key: 'fi********@loja.com.br', label: 'Conta da empresa' },
        uncertain: false,
        description: 'Retirada semanal',
        metadata: { week: '48' },
        failure_code: null,
        failure_reason: null,
        paid_at: null,
        created_at: '2026-12-01T12:00:00.000Z',
        updated_at: '2026-12-01T12:00:01.000Z',
      });
      expect(seen[0]?.request).toEqual({
        caller: expect.objectContaining({ merchant_id: 'acct_1', key_id: 'key_full', restricted: false }),
        idempotency_key: 'repasse-1',
        request_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        provider_account_id: 'pa_01jxyz',
        amount: 15000,
        destination: { type: 'pix_key', destination_id: 'pdest_01jdst' },
        description: 'Retirada semanal',
        metadata: { week: '48' },
      });
      expect(seen[0]?.options?.deadlineMs).toBe(TEST_SETTINGS.createPaymentDeadlineMs);
    });

    it('sends an account destination without an id, and no description as empty', async () => {
      const seen: payouts.CreatePayoutRequest[] = [];
      clients.payouts.createPayout = async (request) => {
        seen.push(request);
        return { payout: protoPayout({ destination: { type: 'account', destination_id: '', key_type: '', key: '', label: '' } }), replayed: false };
      };
      const answer = await app.request('POST', '/v1/payouts', { headers: CREATE, body: { ...BODY, destination: { type: 'account' } } });
      expect(answer.status).toBe(201);
      expect(answer.json.destination).toEqual({ type: 'account' });
      expect(seen[0]).toMatchObject({ destination: { type: 'account', destination_id: '' }, description: '', metadata: {} });
    });

    it('says when the Idempotency-Key replayed an earlier payout, and hashes the same body the same way', async () => {
      const hashes: string[] = [];
      clients.payouts.createPayout = async (request) => {
        hashes.push(request.request_hash);
        return { payout: protoPayout(), replayed: hashes.length > 1 };
      };
      await app.request('POST', '/v1/payouts', { headers: CREATE, body: BODY });
      const replay = await app.request('POST', '/v1/payouts', { headers: CREATE, body: { destination: BODY.destination, amount: 15000, provider_account_id: 'pa_01jxyz' } });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(hashes[1]).toBe(hashes[0]);
      await app.request('POST', '/v1/payouts', { headers: CREATE, body: { ...BODY, amount: 15001 } });
      expect(hashes[2]).not.toBe(hashes[0]);
    });

    it('requires the Idempotency-Key, in Portuguese, without calling the service', async () => {
      let called = false;
      clients.payouts.createPayout = async () => {
        called = true;
        return { payout: protoPayout(), replayed: false };
      };
      const missing = await app.request('POST', '/v1/payouts', { headers: FULL, body: BODY });
      expect(missing.status).toBe(400);
      expect(missing.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: 'Idempotency-Key',
        message: expect.stringMatching(/cabeçalho Idempotency-Key.*obrigatório.*repasse/s),
      });
      const bad = await app.request('POST', '/v1/payouts', { headers: { ...FULL, 'idempotency-key': 'com espaço' }, body: BODY });
      expect(bad.json.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
      expect(called).toBe(false);
    });

    it('refuses a bad body in Portuguese with the param, without calling the service', async () => {
      const cases: Array<[object, string, string]> = [
        [{ ...BODY, amount: 0 }, 'amount_too_small', 'amount'],
        [{ ...BODY, amount: 10.5 }, 'parameter_invalid', 'amount'],
        [{ ...BODY, amount: undefined }, 'parameter_missing', 'amount'],
        [{ ...BODY, provider_account_id: undefined }, 'parameter_missing', 'provider_account_id'],
        [{ ...BODY, destination: undefined }, 'parameter_missing', 'destination'],
        [{ ...BODY, destination: { type: 'pix_key' } }, 'parameter_missing', 'destination.destination_id'],
        [{ ...BODY, destination: { type: 'bank' } }, 'parameter_invalid', 'destination.type'],
        [{ ...BODY, destination: { type: 'account', destination_id: 'pdest_1' } }, 'parameter_invalid', 'destination.destination_id'],
        [{ ...BODY, description: 'x'.repeat(141) }, 'parameter_invalid', 'description'],
        [{ ...BODY, metadata: { week: 48 } }, 'metadata_invalid', 'metadata.week'],
        [{ ...BODY, pix_key: 'financeiro@loja.com.br' }, 'parameter_invalid', 'pix_key'],
      ];
      for (const [body, code, param] of cases) {
        const answer = await app.request('POST', '/v1/payouts', { headers: CREATE, body });
        expect({ status: answer.status, code: answer.json.error.code, param: answer.json.error.param }).toEqual({ status: 400, code, param });
        expect(answer.json.error.message).toMatch(/[ãçéó]|O campo/);
      }
      const json = await app.request('POST', '/v1/payouts', { headers: { ...CREATE, 'content-type': 'application/json' }, body: '{' });
      expect(json.json.error).toMatchObject({ code: 'invalid_json' });
    });

    it("answers the service's refusals as they are: payouts off (403), limit, balance, provider refusal (422)", async () => {
      const refusals: Array<[AppError, number]> = [
        [new AppError('payouts_api_disabled'), 403],
        [new AppError('payout_limit_exceeded', { param: 'amount', message: 'Este repasse passaria do limite diário de repasses.' }), 422],
        [new AppError('insufficient_balance', { message: 'Saldo insuficiente na conta.' }), 422],
        [new AppError('payout_refused', { message: 'O provedor recusou o repasse.' }), 422],
        [new AppError('idempotency_conflict', { param: 'Idempotency-Key' }), 409],
      ];
      for (const [error, status] of refusals) {
        clients.payouts.createPayout = async () => {
          throw error;
        };
        const answer = await app.request('POST', '/v1/payouts', { headers: CREATE, body: BODY });
        expect(answer.status).toBe(status);
        expect(answer.json.error).toMatchObject({ code: error.code, message: error.message, param: error.param ?? null });
      }
    });

    it('needs a key', async () => {
      expect((await app.request('POST', '/v1/payouts', { headers: { 'idempotency-key': 'k' }, body: BODY })).status).toBe(401);
    });
  });

  describe('GET /v1/payouts', () => {
    it('passes the filters and answers a page', async () => {
      const seen: payouts.ListPayoutsRequest[] = [];
      clients.payouts.listPayouts = async (request) => {
        seen.push(request);
        return { data: [protoPayout({ status: 'paid', paid_at: '2026-12-01T12:05:00.000Z' })], has_more: true };
      };
      const answer = await app.request('GET', '/v1/payouts?status=paid&provider_account_id=pa_01jxyz&limit=2&starting_after=po_0', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ object: 'list', has_more: true, data: [{ id: 'po_01jpo', object: 'payout', status: 'paid', paid_at: '2026-12-01T12:05:00.000Z' }] });
      expect(seen[0]).toMatchObject({ status: 'paid', provider_account_id: 'pa_01jxyz', limit: 2, starting_after: 'po_0' });
    });

    it('sends absent filters empty with the default limit, and refuses a bad one', async () => {
      const seen: payouts.ListPayoutsRequest[] = [];
      clients.payouts.listPayouts = async (request) => {
        seen.push(request);
        return { data: [], has_more: false };
      };
      expect((await app.request('GET', '/v1/payouts', { headers: FULL })).json).toEqual({ object: 'list', data: [], has_more: false });
      expect(seen[0]).toMatchObject({ status: '', provider_account_id: '', limit: 10, starting_after: '' });
      const status = await app.request('GET', '/v1/payouts?status=succeeded', { headers: FULL });
      expect(status.status).toBe(400);
      expect(status.json.error).toMatchObject({ param: 'status', message: expect.stringContaining('pending, processing, paid, failed') });
      const limit = await app.request('GET', '/v1/payouts?limit=101', { headers: FULL });
      expect(limit.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
      const unknown = await app.request('GET', '/v1/payouts?state=paid', { headers: FULL });
      expect(unknown.json.error).toMatchObject({ code: 'parameter_invalid', param: 'state' });
      expect(seen).toHaveLength(1);
    });
  });

  describe('GET /v1/payouts/{id} and POST /v1/payouts/{id}/sync', () => {
    it('reads one payout', async () => {
      clients.payouts.getPayout = async ({ payout_id }) => ({ payout: protoPayout({ id: payout_id, uncertain: true, status: 'pending' }) });
      const answer = await app.request('GET', '/v1/payouts/po_01jpo', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 'po_01jpo', status: 'pending', uncertain: true });
    });

    it('syncs under the payment deadline and answers the payout as the provider now says', async () => {
      const seen: Array<{ id: string; deadlineMs: number | undefined }> = [];
      clients.payouts.syncPayout = async ({ payout_id }, options) => {
        seen.push({ id: payout_id, deadlineMs: options?.deadlineMs });
        return { payout: protoPayout({ id: payout_id, status: 'failed', failure_code: 'payout_refused', failure_reason: 'Chave Pix inexistente.' }) };
      };
      const answer = await app.request('POST', '/v1/payouts/po_01jpo/sync', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: 'failed', failure_code: 'payout_refused', failure_reason: 'Chave Pix inexistente.' });
      expect(seen).toEqual([{ id: 'po_01jpo', deadlineMs: TEST_SETTINGS.createPaymentDeadlineMs }]);
    });

    it("is a 404 for an id that cannot exist (no call) and for the service's not_found", async () => {
      const notFound = async (): Promise<never> => {
        throw new AppError('not_found', { param: 'id', message: 'Não existe repasse po_other neste modo.' });
      };
      clients.payouts.getPayout = notFound;
      clients.payouts.syncPayout = notFound;
      for (const [method, path] of [
        ['GET', '/v1/payouts/no%20such'],
        ['POST', '/v1/payouts/no%20such/sync'],
      ] as const) {
        expect((await app.request(method, path, { headers: FULL })).status).toBe(404);
      }
      for (const [method, path] of [
        ['GET', '/v1/payouts/po_other'],
        ['POST', '/v1/payouts/po_other/sync'],
      ] as const) {
        const unknown = await app.request(method, path, { headers: FULL });
        expect(unknown.status).toBe(404);
        expect(unknown.json.error).toEqual({ type: 'invalid_request_error', code: 'not_found', param: 'id', message: 'Não existe repasse po_other neste modo.' });
      }
    });
  });

  describe('GET /v1/balances', () => {
    it('answers each account with null for what could not be read, under the payment deadline', async () => {
      let deadlineMs: number | undefined;
      clients.payouts.getBalances = async (_request, options) => {
        deadlineMs = options?.deadlineMs;
        return {
          data: [
            {
              provider_account_id: 'pa_01jxyz',
              provider: 'asaas',
              name: 'Asaas principal',
              available: 125000,
              currency: 'BRL',
              as_of: '2026-12-01T12:00:00.000Z',
              payouts_supported: true,
              destination_types: ['account', 'pix_key'],
            },
            {
              provider_account_id: 'pa_02',
              provider: 'efi',
              name: 'Efí',
              currency: 'BRL',
              payouts_supported: true,
              destination_types: [],
              error: 'Não foi possível consultar o saldo neste provedor agora. Tente de novo em instantes.',
            },
          ],
          payouts_api_enabled: true,
        };
      };
      const answer = await app.request('GET', '/v1/balances', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        object: 'list',
        data: [
          {
            provider_account_id: 'pa_01jxyz',
            provider: 'asaas',
            name: 'Asaas principal',
            available: 125000,
            pending: null,
            currency: 'BRL',
            as_of: '2026-12-01T12:00:00.000Z',
            payouts_supported: true,
            destination_types: ['account', 'pix_key'],
            error: null,
          },
          {
            provider_account_id: 'pa_02',
            provider: 'efi',
            name: 'Efí',
            available: null,
            pending: null,
            currency: 'BRL',
            as_of: null,
            payouts_supported: true,
            destination_types: [],
            error: 'Não foi possível consultar o saldo neste provedor agora. Tente de novo em instantes.',
          },
        ],
        payouts_api_enabled: true,
      });
      expect(deadlineMs).toBe(TEST_SETTINGS.createPaymentDeadlineMs);
    });
  });

  describe('GET /v1/payout-destinations', () => {
    it('answers the saved Pix keys as the service masked them', async () => {
      clients.payouts.listPayoutDestinations = async () => ({
        data: [{ type: 'pix_key', destination_id: 'pdest_01jdst', key_type: 'cpf', key: '***.982.247-**', label: 'Sócia' }],
      });
      const answer = await app.request('GET', '/v1/payout-destinations', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        object: 'list',
        data: [{ type: 'pix_key', destination_id: 'pdest_01jdst', key_type: 'cpf', key: '***.982.247-**', label: 'Sócia' }],
      });
    });
  });

  it('refuses a restricted key on every route with 403 restricted_key, without calling the service', async () => {
    const calls: string[] = [];
    for (const method of Object.keys(clients.payouts) as Array<keyof FakeClients['payouts']>) {
      clients.payouts[method] = (async () => {
        calls.push(method);
        throw new Error('must not be called');
      }) as never;
    }
    for (const [method, path] of [
      ['GET', '/v1/balances'],
      ['POST', '/v1/payouts'],
      ['GET', '/v1/payouts'],
      ['GET', '/v1/payouts/po_01jpo'],
      ['POST', '/v1/payouts/po_01jpo/sync'],
      ['GET', '/v1/payout-destinations'],
    ] as const) {
      const answer = await app.request(method, path, { headers: { ...RESTRICTED, 'idempotency-key': 'repasse-1' }, ...(method === 'POST' ? { body: BODY } : {}) });
      expect({ route: `${method} ${path}`, status: answer.status, code: answer.json.error.code }).toEqual({ route: `${method} ${path}`, status: 403, code: 'restricted_key' });
    }
    expect(calls).toEqual([]);
  });
});

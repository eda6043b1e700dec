import { AppError, type CallOptions } from '@orquestra/platform';
import type { payments, payouts } from '@orquestra/contracts';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, TEST_SETTINGS, protoSubaccount } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };
const BODY = { provider_account_id: 'pa_01jxyz', name: 'Ana Souza', document: '529.982.247-25' };
const ADDRESS = { zip: '01310-100', street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'sp' };

const SHOWN = {
  id: 'sub_01jsub',
  object: 'subaccount',
  mode: 'test',
  status: 'pending',
  status_detail: 'Cadastro em análise no provedor.',
  provider: 'pagarme',
  provider_account_id: 'pa_01jxyz',
  provider_subaccount_id: 're_cm1x2y3z',
  type: 'individual',
  name: 'Ana Souza',
  document: '52998224725',
  email: 'ana@loja.com.br',
  details: { bank_account: '341 0001 ****56-7' },
  metadata: { seller: '42' },
  created_at: '2026-12-01T12:00:00.000Z',
  updated_at: '2026-12-01T12:00:01.000Z',
};

describe('subaccount routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  describe('POST /v1/subaccounts', () => {
    it('creates with the caller, the key and the body hash under the payment deadline; 201 with Location and the public subaccount', async () => {
      const seen: Array<{ request: payouts.CreateSubaccountRequest; options: CallOptions | undefined }> = [];
      clients.payouts.createSubaccount = async (request, options) => {
        seen.push({ request, options });
        return { subaccount: protoSubaccount(), replayed: false };
      };
      const body = {
        ...BODY,
        type: 'company',
        document: '12.ABC.345/01de-35',
        email: 'ana@loja.com.br',
        phone: '+55 11 91234-5678',
        birthdate: '1990-05-17',
        mother_name: 'Maria Souza',
        occupation: 'Comerciante',
        monthly_income: 500000,
        address: { ...ADDRESS, complement: 'Conjunto 12' },
        bank_account: { bank: '341', branch: '0001', account: '123456', account_digit: '7', type: 'checking', holder_name: 'Ana Souza' },
        pix_key: { key_type: 'email', key: 'ana@loja.com.br' },
        company: { trading_name: 'Loja da Ana', company_type: 'MEI', founding_date: '2020-01-15', annual_revenue: 12000000 },
        partner: { name: 'Ana Souza', document: '529.982.247-25', birthdate: '1990-05-17', address: ADDRESS },
        transfer_interval: 'weekly',
        metadata: { seller: '42' },
      };
      const answer = await app.request('POST', '/v1/subaccounts', { headers: { ...FULL, 'idempotency-key': 'vendedor-42' }, body });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/subaccounts/sub_01jsub');
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.json).toEqual(SHOWN);
      const address = { zip: '01310100', street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP' };
      expect(seen[0]?.request).toEqual({
        caller: expect.objectContaining({ merchant_id: 'acct_1', key_id: 'key_full', restricted: false }),
        idempotency_key: 'vendedor-42',
        request_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        provider_account_id: 'pa_01jxyz',
        type: 'company',
        person: {
          name: 'Ana Souza',
          document: '12ABC34501DE35',
          email: 'ana@loja.com.br',
          phone: '+55 11 91234-5678',
          birthdate: '1990-05-17',
          mother_name: 'Maria Souza',
          occupation: 'Comerciante',
          monthly_income: 500000,
          address: { ...address, complement: 'Conjunto 12' },
        },
        bank_account: { bank: '341', branch: '0001', branch_digit: '', account: '123456', account_digit: '7', type: 'checking', holder_name: 'Ana Souza' },
        pix_key: { key_type: 'email', key: 'ana@loja.com.br' },
        company: { trading_name: 'Loja da Ana', company_type: 'MEI', founding_date: '2020-01-15', annual_revenue: 12000000 },
        partner: { name: 'Ana Souza', document: '52998224725', email: '', phone: '', birthdate: '1990-05-17', mother_name: '', occupation: '', address },
        transfer_interval: 'weekly',
        metadata: { seller: '42' },
      });
      expect(seen[0]?.options?.deadlineMs).toBe(TEST_SETTINGS.createPaymentDeadlineMs);
    });

    it('sends the minimal body with empty texts and nothing for absent objects; no Idempotency-Key is empty', async () => {
      const seen: payouts.CreateSubaccountRequest[] = [];
      clients.payouts.createSubaccount = async (request) => {
        seen.push(request);
        return { subaccount: protoSubaccount(), replayed: false };
      };
      expect((await app.request('POST', '/v1/subaccounts', { headers: FULL, body: BODY })).status).toBe(201);
      expect(seen[0]).toEqual({
        caller: expect.anything(),
        idempotency_key: '',
        request_hash: expect.any(String),
        provider_account_id: 'pa_01jxyz',
        type: '',
        person: { name: 'Ana Souza', document: '52998224725', email: '', phone: '', birthdate: '', mother_name: '', occupation: '' },
        transfer_interval: '',
        metadata: {},
      });
    });

    it('says when the Idempotency-Key replayed an earlier subaccount, and hashes the same body the same way', async () => {
      const hashes: string[] = [];
      clients.payouts.createSubaccount = async (request) => {
        hashes.push(request.request_hash);
        return { subaccount: protoSubaccount(), replayed: hashes.length > 1 };
      };
      const headers = { ...FULL, 'idempotency-key': 'vendedor-42' };
      await app.request('POST', '/v1/subaccounts', { headers, body: BODY });
      const replay = await app.request('POST', '/v1/subaccounts', { headers, body: { document: '52998224725', name: 'Ana Souza', provider_account_id: 'pa_01jxyz' } });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(hashes[1]).toBe(hashes[0]);
      await app.request('POST', '/v1/subaccounts', { headers, body: { ...BODY, name: 'Ana S.' } });
      expect(hashes[2]).not.toBe(hashes[0]);
    });

    it('refuses a bad body in Portuguese with the param, without calling the service', async () => {
      let called = false;
      clients.payouts.createSubaccount = async () => {
        called = true;
        return { subaccount: protoSubaccount(), replayed: false };
      };
      const metadata21 = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, 'v']));
      const cases: Array<[object, string, string]> = [
        [{ ...BODY, provider_account_id: undefined }, 'parameter_missing', 'provider_account_id'],
        [{ ...BODY, name: undefined }, 'parameter_missing', 'name'],
        [{ ...BODY, document: undefined }, 'parameter_missing', 'document'],
        [{ ...BODY, document: '529.982.247-24' }, 'parameter_invalid', 'document'],
        [{ ...BODY, document: '12.ABC.345/01DE-36' }, 'parameter_invalid', 'document'],
        [{ ...BODY, document: '1234' }, 'parameter_invalid', 'document'],
        [{ ...BODY, type: 'person' }, 'parameter_invalid', 'type'],
        [{ ...BODY, email: 'ana' }, 'parameter_invalid', 'email'],
        [{ ...BODY, birthdate: '17/05/1990' }, 'parameter_invalid', 'birthdate'],
        [{ ...BODY, birthdate: '1990-02-30' }, 'parameter_invalid', 'birthdate'],
        [{ ...BODY, monthly_income: 10.5 }, 'parameter_invalid', 'monthly_income'],
        [{ ...BODY, address: { ...ADDRESS, zip: '0131' } }, 'parameter_invalid', 'address.zip'],
        [{ ...BODY, address: { ...ADDRESS, city: undefined } }, 'parameter_missing', 'address.city'],
        [{ ...BODY, bank_account: { bank: '34', branch: '0001', account: '123456' } }, 'parameter_invalid', 'bank_account.bank'],
        [{ ...BODY, bank_account: { bank: '341', branch: '0001', account: '123456', type: 'salary' } }, 'parameter_invalid', 'bank_account.type'],
        [{ ...BODY, pix_key: { key_type: 'evp', key: 'x' } }, 'parameter_invalid', 'pix_key.key_type'],
        [{ ...BODY, company: { founding_date: '2020-13-01' } }, 'parameter_invalid', 'company.founding_date'],
        [{ ...BODY, partner: { name: 'Ana', document: '11111111111' } }, 'parameter_invalid', 'partner.document'],
        [{ ...BODY, transfer_interval: 'yearly' }, 'parameter_invalid', 'transfer_interval'],
        [{ ...BODY, metadata: metadata21 }, 'metadata_invalid', 'metadata'],
        [{ ...BODY, metadata: { seller: 42 } }, 'metadata_invalid', 'metadata.seller'],
        [{ ...BODY, api_key: 'x' }, 'parameter_invalid', 'api_key'],
      ];
      for (const [body, code, param] of cases) {
        const answer = await app.request('POST', '/v1/subaccounts', { headers: FULL, body });
        expect({ body, status: answer.status, code: answer.json.error.code, param: answer.json.error.param }).toEqual({ body, status: 400, code, param });
        expect(answer.json.error.message).toMatch(/[ãçéó]|O campo/);
      }
      const badCpf = await app.request('POST', '/v1/subaccounts', { headers: FULL, body: { ...BODY, document: '529.982.247-24' } });
      expect(badCpf.json.error.message).toMatch(/O campo document deve ser um CPF ou CNPJ válido.*dígitos verificadores/);
      const missing = await app.request('POST', '/v1/subaccounts', { headers: FULL, body: { ...BODY, document: undefined } });
      expect(missing.json.error.message).toBe('O campo document é obrigatório. Informe o CPF ou o CNPJ (inclusive o alfanumérico); pontos, traço e barra são aceitos.');
      const badKey = await app.request('POST', '/v1/subaccounts', { headers: { ...FULL, 'idempotency-key': 'com espaço' }, body: BODY });
      expect(badKey.json.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key', message: expect.stringContaining('única por subconta') });
      expect(called).toBe(false);
    });

    it("answers the service's refusals as they are: a field the provider requires (400 with param), the provider's refusal with its param", async () => {
      const refusals: Array<[AppError, number]> = [
        [new AppError('parameter_missing', { param: 'mother_name', message: 'O campo mother_name é obrigatório para subcontas na Pagar.me.' }), 400],
        [new AppError('not_found', { param: 'provider_account_id', message: 'Não existe conta pa_01jxyz neste modo.' }), 404],
        [new AppError('idempotency_conflict', { param: 'Idempotency-Key' }), 409],
        [new AppError('provider_rejected', { param: 'bank_account.account', message: 'O Asaas recusou bank_account.account.' }), 502],
      ];
      for (const [error, status] of refusals) {
        clients.payouts.createSubaccount = async () => {
          throw error;
        };
        const answer = await app.request('POST', '/v1/subaccounts', { headers: FULL, body: BODY });
        expect(answer.status).toBe(status);
        expect(answer.json.error).toMatchObject({ code: error.code, message: error.message, param: error.param ?? null });
      }
    });

    it('needs a key', async () => {
      expect((await app.request('POST', '/v1/subaccounts', { body: BODY })).status).toBe(401);
    });
  });

  describe('GET /v1/subaccounts', () => {
    it('passes the filters and answers a page', async () => {
      const seen: payouts.ListSubaccountsRequest[] = [];
      clients.payouts.listSubaccounts = async (request) => {
        seen.push(request);
        return { data: [protoSubaccount({ status: 'active' })], has_more: true };
      };
      const answer = await app.request('GET', '/v1/subaccounts?status=active&provider_account_id=pa_01jxyz&q=Ana&limit=2&starting_after=sub_0', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ object: 'list', has_more: true, data: [{ ...SHOWN, status: 'active' }] });
      expect(seen[0]).toMatchObject({ status: 'active', provider_account_id: 'pa_01jxyz', q: 'Ana', limit: 2, starting_after: 'sub_0' });
    });

    it('sends absent filters empty with the default limit, and refuses a bad one', async () => {
      const seen: payouts.ListSubaccountsRequest[] = [];
      clients.payouts.listSubaccounts = async (request) => {
        seen.push(request);
        return { data: [], has_more: false };
      };
      expect((await app.request('GET', '/v1/subaccounts', { headers: FULL })).json).toEqual({ object: 'list', data: [], has_more: false });
      expect(seen[0]).toMatchObject({ status: '', provider_account_id: '', q: '', limit: 10, starting_after: '' });
      const status = await app.request('GET', '/v1/subaccounts?status=approved', { headers: FULL });
      expect(status.status).toBe(400);
      expect(status.json.error).toMatchObject({ param: 'status', message: expect.stringContaining('pending, active, refused, blocked, inactive') });
      const unknown = await app.request('GET', '/v1/subaccounts?document=123', { headers: FULL });
      expect(unknown.json.error).toMatchObject({ code: 'parameter_invalid', param: 'document' });
      expect(seen).toHaveLength(1);
    });
  });

  describe('GET /v1/subaccounts/{id}', () => {
    it('reads one subaccount with its split totals and recent split payments, asked of payments for that subaccount', async () => {
      clients.payouts.getSubaccount = async ({ subaccount_id }) => ({ subaccount: protoSubaccount({ id: subaccount_id, status_detail: '', email: '' }) });
      const asked: payments.GetSplitSummaryRequest[] = [];
      clients.payments.getSplitSummary = async (request) => {
        asked.push(request);
        return {
          totals: { payments: 3, paid_payments: 2, paid_amount: 5_000, pending_amount: 1_250 },
          recent: [{ payment_id: 'pay_2', status: 'pending', method: '', payment_amount: 5_000, amount: 1_250, created_at: '2026-12-02T10:00:00.000Z' }],
        };
      };
      const answer = await app.request('GET', '/v1/subaccounts/sub_01jsub', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        ...SHOWN,
        status_detail: null,
        email: null,
        totals: { payments: 3, paid_payments: 2, paid_amount: 5_000, pending_amount: 1_250 },
        recent_split_payments: [{ payment_id: 'pay_2', status: 'pending', method: null, payment_amount: 5_000, amount: 1_250, created_at: '2026-12-02T10:00:00.000Z' }],
      });
      expect(asked).toMatchObject([{ subaccount_id: 'sub_01jsub', recent_limit: 10 }]);
    });
  });

  describe('PATCH /v1/subaccounts/{id}', () => {
    it('sends name and metadata, saying the metadata was sent', async () => {
      const seen: payouts.UpdateSubaccountRequest[] = [];
      clients.payouts.updateSubaccount = async (request) => {
        seen.push(request);
        return { subaccount: protoSubaccount({ name: 'Ana Souza ME', metadata: { tier: 'gold' } }) };
      };
      const answer = await app.request('PATCH', '/v1/subaccounts/sub_01jsub', { headers: FULL, body: { name: 'Ana Souza ME', metadata: { tier: 'gold', seller: '' } } });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ name: 'Ana Souza ME', metadata: { tier: 'gold' } });
      expect(seen[0]).toEqual({
        caller: expect.objectContaining({ key_id: 'key_full' }),
        subaccount_id: 'sub_01jsub',
        name: 'Ana Souza ME',
        metadata: { tier: 'gold', seller: '' },
        metadata_set: true,
      });
    });

    it('sends a name alone without touching the metadata', async () => {
      const seen: payouts.UpdateSubaccountRequest[] = [];
      clients.payouts.updateSubaccount = async (request) => {
        seen.push(request);
        return { subaccount: protoSubaccount() };
      };
      await app.request('PATCH', '/v1/subaccounts/sub_01jsub', { headers: FULL, body: { name: 'Ana' } });
      expect(seen[0]).toEqual({ caller: expect.anything(), subaccount_id: 'sub_01jsub', name: 'Ana', metadata: {}, metadata_set: false });
    });

    it('refuses any other field, and an empty body, without calling the service', async () => {
      let called = false;
      clients.payouts.updateSubaccount = async () => {
        called = true;
        return { subaccount: protoSubaccount() };
      };
      for (const field of ['document', 'email', 'status', 'bank_account', 'pix_key', 'provider_account_id']) {
        const answer = await app.request('PATCH', '/v1/subaccounts/sub_01jsub', { headers: FULL, body: { name: 'Ana', [field]: 'x' } });
        expect({ field, status: answer.status, code: answer.json.error.code, param: answer.json.error.param }).toEqual({
          field,
          status: 400,
          code: 'parameter_invalid',
          param: field,
        });
      }
      const empty = await app.request('PATCH', '/v1/subaccounts/sub_01jsub', { headers: FULL, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.json.error).toMatchObject({ code: 'parameter_missing', message: expect.stringContaining('name ou metadata') });
      const blank = await app.request('PATCH', '/v1/subaccounts/sub_01jsub', { headers: FULL, body: { name: ' ' } });
      expect(blank.json.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
      expect(called).toBe(false);
    });
  });

  describe('POST /v1/subaccounts/{id}/sync, /onboarding-link and GET /balance', () => {
    it('syncs under the payment deadline and answers the subaccount as the provider now says', async () => {
      const seen: Array<{ id: string; deadlineMs: number | undefined }> = [];
      clients.payouts.syncSubaccount = async ({ subaccount_id }, options) => {
        seen.push({ id: subaccount_id, deadlineMs: options?.deadlineMs });
        return { subaccount: protoSubaccount({ status: 'refused', status_detail: 'Documento recusado pelo provedor.' }) };
      };
      const answer = await app.request('POST', '/v1/subaccounts/sub_01jsub/sync', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: 'refused', status_detail: 'Documento recusado pelo provedor.' });
      expect(seen).toEqual([{ id: 'sub_01jsub', deadlineMs: TEST_SETTINGS.createPaymentDeadlineMs }]);
    });

    it('answers the onboarding link, with a null QR when the provider gives none', async () => {
      const seen: Array<{ id: string; deadlineMs: number | undefined }> = [];
      clients.payouts.createSubaccountOnboardingLink = async ({ subaccount_id }, options) => {
        seen.push({ id: subaccount_id, deadlineMs: options?.deadlineMs });
        return seen.length === 1
          ? { url: 'https://onboarding.exemplo.com/abc', expires_at: '2026-12-02T12:00:00.000Z', qr_code_base64: 'iVBORw0KGgo=' }
          : { url: 'https://onboarding.exemplo.com/def', expires_at: '2026-12-02T12:00:00.000Z' };
      };
      const first = await app.request('POST', '/v1/subaccounts/sub_01jsub/onboarding-link', { headers: FULL });
      expect(first.status).toBe(200);
      expect(first.json).toEqual({ url: 'https://onboarding.exemplo.com/abc', expires_at: '2026-12-02T12:00:00.000Z', qr_code_base64: 'iVBORw0KGgo=' });
      const second = await app.request('POST', '/v1/subaccounts/sub_01jsub/onboarding-link', { headers: FULL });
      expect(second.json).toEqual({ url: 'https://onboarding.exemplo.com/def', expires_at: '2026-12-02T12:00:00.000Z', qr_code_base64: null });
      expect(seen[0]).toEqual({ id: 'sub_01jsub', deadlineMs: TEST_SETTINGS.createPaymentDeadlineMs });
    });

    it('answers the balance, with a null pending when the provider does not say', async () => {
      clients.payouts.getSubaccountBalance = async ({ subaccount_id }) =>
        subaccount_id === 'sub_01jsub'
          ? { available: 125000, pending: 30000, currency: 'BRL', as_of: '2026-12-01T12:00:00.000Z' }
          : { available: 0, currency: 'BRL', as_of: '2026-12-01T12:00:00.000Z' };
      const answer = await app.request('GET', '/v1/subaccounts/sub_01jsub/balance', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ object: 'balance', available: 125000, pending: 30000, currency: 'BRL', as_of: '2026-12-01T12:00:00.000Z' });
      const empty = await app.request('GET', '/v1/subaccounts/sub_02/balance', { headers: FULL });
      expect(empty.json).toEqual({ object: 'balance', available: 0, pending: null, currency: 'BRL', as_of: '2026-12-01T12:00:00.000Z' });
    });
  });

  it("is a 404 for an id that cannot exist (no call) and for the service's not_found on every {id} route", async () => {
    const notFound = async (): Promise<never> => {
      throw new AppError('not_found', { param: 'id', message: 'Não existe subconta sub_other neste modo.' });
    };
    clients.payouts.getSubaccount = notFound;
    clients.payouts.updateSubaccount = notFound;
    clients.payouts.syncSubaccount = notFound;
    clients.payouts.createSubaccountOnboardingLink = notFound;
    clients.payouts.getSubaccountBalance = notFound;
    const routes = (id: string) =>
      [
        ['GET', `/v1/subaccounts/${id}`],
        ['PATCH', `/v1/subaccounts/${id}`],
        ['POST', `/v1/subaccounts/${id}/sync`],
        ['POST', `/v1/subaccounts/${id}/onboarding-link`],
        ['GET', `/v1/subaccounts/${id}/balance`],
      ] as const;
    for (const [method, path] of routes('no%20such')) {
      expect((await app.request(method, path, { headers: FULL, ...(method === 'PATCH' ? { body: { name: 'Ana' } } : {}) })).status).toBe(404);
    }
    for (const [method, path] of routes('sub_other')) {
      const unknown = await app.request(method, path, { headers: FULL, ...(method === 'PATCH' ? { body: { name: 'Ana' } } : {}) });
      expect(unknown.status).toBe(404);
      expect(unknown.json.error).toEqual({ type: 'invalid_request_error', code: 'not_found', param: 'id', message: 'Não existe subconta sub_other neste modo.' });
    }
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
      ['POST', '/v1/subaccounts'],
      ['GET', '/v1/subaccounts'],
      ['GET', '/v1/subaccounts/sub_01jsub'],
      ['PATCH', '/v1/subaccounts/sub_01jsub'],
      ['POST', '/v1/subaccounts/sub_01jsub/sync'],
      ['POST', '/v1/subaccounts/sub_01jsub/onboarding-link'],
      ['GET', '/v1/subaccounts/sub_01jsub/balance'],
    ] as const) {
      const body = method === 'POST' && path === '/v1/subaccounts' ? BODY : method === 'PATCH' ? { name: 'Ana' } : undefined;
      const answer = await app.request(method, path, { headers: RESTRICTED, ...(body ? { body } : {}) });
      expect({ route: `${method} ${path}`, status: answer.status, code: answer.json.error.code }).toEqual({ route: `${method} ${path}`, status: 403, code: 'restricted_key' });
    }
    expect(calls).toEqual([]);
  });
});

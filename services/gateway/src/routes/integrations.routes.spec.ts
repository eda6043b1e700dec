import { status } from '@grpc/grpc-js';
import type { tracking } from '@orquestra/contracts';
import { RpcError } from '@orquestra/platform';
import type { ZodTypeAny } from 'zod';
import { buildOpenApiDocument } from '../openapi/openapi.document';
import {
  DeletedIntegrationSchema,
  IntegrationDeliveryListSchema,
  IntegrationDeliverySchema,
  IntegrationKindListSchema,
  IntegrationKindSchema,
  IntegrationListSchema,
  IntegrationSchema,
} from '../schemas/integration.response.schema';
import { CreateIntegrationSchema, UpdateIntegrationSchema } from '../schemas/integration.schema';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };
const ID = 'itg_01jabc';
const SECRET = 'EAAGm0PX4ZCpsBAsecretvalue9';

function protoIntegration(overrides: Partial<tracking.Integration> = {}): tracking.Integration {
  return {
    id: ID,
    kind: 'meta',
    name: 'Pixel da loja',
    enabled: true,
    sales: 'both',
    options: { pixel_id: '1234567890' },
    credentials_last4: { access_token: 'lue9' },
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

function protoDelivery(overrides: Partial<tracking.Delivery> = {}): tracking.Delivery {
  return {
    id: 'dlv_1',
    integration_id: ID,
    payment_id: 'pay_1',
    event: 'purchase',
    test: false,
    status: 'delivered',
    reason: '',
    reason_text: '',
    attempts: 1,
    next_attempt_at: '',
    request_summary: '{"event_name":"Purchase","event_id":"pay_1","value":19.9}',
    response_status: 200,
    response_body: '{"events_received":1}',
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:01.000Z',
    delivered_at: '2026-11-01T00:00:01.000Z',
    ...overrides,
  };
}

const notFound = (param: string, message = 'Integração não encontrada.') => new RpcError('not_found', status.NOT_FOUND, { param, message });

describe('/v1/integration-kinds and /v1/integrations over HTTP', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  it('refuses restricted keys on every integration route with 403 restricted_key, before any call', async () => {
    for (const [method, path] of [
      ['GET', '/v1/integration-kinds'],
      ['GET', '/v1/integrations'],
      ['POST', '/v1/integrations'],
      ['GET', `/v1/integrations/${ID}`],
      ['PATCH', `/v1/integrations/${ID}`],
      ['DELETE', `/v1/integrations/${ID}`],
      ['GET', `/v1/integrations/${ID}/deliveries`],
      ['POST', `/v1/integrations/${ID}/test`],
    ] as const) {
      const answer = await app.request(method, path, { headers: BOT, ...(method === 'POST' || method === 'PATCH' ? { body: {} } : {}) });
      expect([method, path, answer.status, answer.json.error?.code]).toEqual([method, path, 403, 'restricted_key']);
      const anonymous = await app.request(method, path);
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
    }
  });

  it('lists the kinds with their fields; an empty description is null', async () => {
    const kind: tracking.IntegrationKind = {
      id: 'utmify',
      name: 'Utmify',
      description: 'O pedido com UTMs.',
      credentials: [{ name: 'api_token', label: 'Token da API', required: true, description: '' }],
      options: [],
      sends: ['waiting_payment', 'paid'],
    };
    const list = jest.fn(async (_r: tracking.ListIntegrationKindsRequest) => ({ kinds: [kind] }));
    clients.tracking.listIntegrationKinds = list;
    const answer = await app.request('GET', '/v1/integration-kinds', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          id: 'utmify',
          object: 'integration_kind',
          name: 'Utmify',
          description: 'O pedido com UTMs.',
          credentials: [{ name: 'api_token', label: 'Token da API', required: true, description: null }],
          options: [],
          sends: ['waiting_payment', 'paid'],
        },
      ],
    });
    expect(IntegrationKindListSchema.safeParse(answer.json).success).toBe(true);
    expect(list.mock.calls[0]![0].caller).toMatchObject({ merchant_id: 'acct_1', restricted: false });
  });

  it('creates: 201 with Location, sends the credentials down once and never shows them, only their last 4', async () => {
    const create = jest.fn(async (_r: tracking.CreateIntegrationRequest) => ({ integration: protoIntegration() }));
    clients.tracking.createIntegration = create;
    const answer = await app.request('POST', '/v1/integrations', {
      headers: FULL,
      body: { kind: 'meta', name: 'Pixel da loja', sales: 'both', options: { pixel_id: '1234567890' }, credentials: { access_token: SECRET } },
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(`/v1/integrations/${ID}`);
    expect(answer.json).toEqual({
      id: ID,
      object: 'integration',
      kind: 'meta',
      name: 'Pixel da loja',
      enabled: true,
      sales: 'both',
      options: { pixel_id: '1234567890' },
      credentials_last4: { access_token: 'lue9' },
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
    });
    expect(answer.text).not.toContain(SECRET);
    expect(answer.json).not.toHaveProperty('credentials');
    expect(create.mock.calls[0]![0]).toMatchObject({
      kind: 'meta',
      name: 'Pixel da loja',
      sales: 'both',
      options: { pixel_id: '1234567890' },
      credentials: { access_token: SECRET },
      caller: { restricted: false },
    });
    expect(create.mock.calls[0]![0]).not.toHaveProperty('enabled');
  });

  it('creates with only kind and credentials: name and sales empty (the service picks the key mode), options empty', async () => {
    const create = jest.fn(async (_r: tracking.CreateIntegrationRequest) => ({ integration: protoIntegration({ kind: 'utmify', name: '', sales: 'test', options: {} }) }));
    clients.tracking.createIntegration = create;
    const answer = await app.request('POST', '/v1/integrations', { headers: FULL, body: { kind: 'utmify', credentials: { api_token: 'tok_abcd' }, enabled: false } });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ kind: 'utmify', name: null, sales: 'test', options: {} });
    expect(create.mock.calls[0]![0]).toMatchObject({ kind: 'utmify', name: '', sales: '', options: {}, credentials: { api_token: 'tok_abcd' }, enabled: false });
  });

  it('never lets a field the service might add leak: the answer is built field by field', async () => {
    const leaky = { ...protoIntegration(), credentials: { access_token: SECRET }, sealed_credentials: 'v1:abc' } as tracking.Integration;
    clients.tracking.getIntegration = async () => ({ integration: leaky });
    const answer = await app.request('GET', `/v1/integrations/${ID}`, { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(SECRET);
    expect(Object.keys(answer.json).sort()).toEqual(
      ['created_at', 'credentials_last4', 'enabled', 'id', 'kind', 'name', 'object', 'options', 'sales', 'updated_at'].sort(),
    );
  });

  it('validates the create body in Portuguese with param, before any call', async () => {
    const cases: Array<[unknown, string, string, RegExp]> = [
      [{ credentials: { api_token: 'x' } }, 'kind', 'parameter_missing', /kind é obrigatório/],
      [{ kind: 'google', credentials: { api_token: 'x' } }, 'kind', 'parameter_invalid', /utmify, meta, tiktok/],
      [{ kind: 'utmify' }, 'credentials', 'parameter_missing', /credentials é obrigatório/],
      [{ kind: 'utmify', credentials: { api_token: 123 } }, 'credentials.api_token', 'parameter_invalid', /deve ser um texto/],
      [{ kind: 'utmify', credentials: { api_token: 'x'.repeat(2049) } }, 'credentials.api_token', 'parameter_invalid', /no máximo 2048/],
      [{ kind: 'utmify', credentials: { api_token: '' } }, 'credentials.api_token', 'parameter_invalid', /pelo menos 1/],
      [{ kind: 'meta', credentials: { access_token: 'x' }, options: { pixel_id: 42 } }, 'options.pixel_id', 'parameter_invalid', /deve ser um texto/],
      [{ kind: 'meta', credentials: { access_token: 'x' }, options: { pixel_id: 'y'.repeat(501) } }, 'options.pixel_id', 'parameter_invalid', /no máximo 500/],
      [{ kind: 'meta', credentials: { access_token: 'x' }, options: { 'Pixel Id': '1' } }, 'options.Pixel Id', 'parameter_invalid', /GET \/v1\/integration-kinds/],
      [{ kind: 'meta', credentials: { access_token: 'x' }, sales: 'all' }, 'sales', 'parameter_invalid', /live, test, both/],
      [{ kind: 'meta', credentials: { access_token: 'x' }, enabled: 'yes' }, 'enabled', 'parameter_invalid', /verdadeiro ou falso/],
      [{ kind: 'meta', credentials: { access_token: 'x' }, secret: 'x' }, 'secret', 'parameter_invalid', /não existe/],
      [{ kind: 'meta', credentials: 'EAAG' }, 'credentials', 'parameter_invalid', /deve ser um objeto/],
    ];
    for (const [body, param, code, message] of cases) {
      const answer = await app.request('POST', '/v1/integrations', { headers: FULL, body: body as object });
      expect([param, answer.status, answer.json.error?.code, answer.json.error?.param]).toEqual([param, 400, code, param]);
      expect(answer.json.error.message).toMatch(message);
    }
    const notJson = await app.request('POST', '/v1/integrations', { headers: { ...FULL, 'content-type': 'application/json' }, body: '{"kind":' });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.code).toBe('invalid_json');
  });

  it("passes the service's kind-specific refusal through (400, its param and message)", async () => {
    clients.tracking.createIntegration = async () => {
      throw new RpcError('parameter_missing', status.INVALID_ARGUMENT, {
        param: 'options.pixel_id',
        message: 'O campo options.pixel_id é obrigatório para meta. Informe o id do pixel.',
      });
    };
    const answer = await app.request('POST', '/v1/integrations', { headers: FULL, body: { kind: 'meta', credentials: { access_token: SECRET } } });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'parameter_missing', param: 'options.pixel_id', message: 'O campo options.pixel_id é obrigatório para meta. Informe o id do pixel.' });
    expect(answer.text).not.toContain(SECRET);
  });

  it('lists the integrations as one page', async () => {
    clients.tracking.listIntegrations = async () => ({ integrations: [protoIntegration(), protoIntegration({ id: 'itg_2', kind: 'tiktok', sales: 'live' })] });
    const answer = await app.request('GET', '/v1/integrations', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ object: 'list', has_more: false, data: [{ id: ID }, { id: 'itg_2', kind: 'tiktok', sales: 'live' }] });
    expect(IntegrationListSchema.safeParse(answer.json).success).toBe(true);
  });

  it('updates partially: only the fields sent; options and credentials as maps (empty when not sent)', async () => {
    const update = jest.fn(async (_r: tracking.UpdateIntegrationRequest) => ({ integration: protoIntegration({ enabled: false }) }));
    clients.tracking.updateIntegration = update;
    const answer = await app.request('PATCH', `/v1/integrations/${ID}`, { headers: FULL, body: { enabled: false, options: { test_event_code: '' } } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: ID, enabled: false });
    const request = update.mock.calls[0]![0];
    expect(request).toMatchObject({ integration_id: ID, enabled: false, options: { test_event_code: '' }, credentials: {} });
    expect(request).not.toHaveProperty('name');
    expect(request).not.toHaveProperty('sales');

    await app.request('PATCH', `/v1/integrations/${ID}`, { headers: FULL, body: { credentials: { access_token: 'new-token' }, sales: 'live', name: 'Outro' } });
    expect(update.mock.calls[1]![0]).toMatchObject({ credentials: { access_token: 'new-token' }, sales: 'live', name: 'Outro', options: {} });

    const empty = await app.request('PATCH', `/v1/integrations/${ID}`, { headers: FULL, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatchObject({ code: 'parameter_missing' });
    expect(empty.json.error.message).toMatch(/ao menos um campo/);
    const kind = await app.request('PATCH', `/v1/integrations/${ID}`, { headers: FULL, body: { kind: 'tiktok' } });
    expect(kind.status).toBe(400);
    expect(kind.json.error.param).toBe('kind');
    expect(update).toHaveBeenCalledTimes(2);
  });

  it('deletes: the integration as it was, with deleted true', async () => {
    const remove = jest.fn(async (_r: tracking.DeleteIntegrationRequest) => ({ integration: protoIntegration() }));
    clients.tracking.deleteIntegration = remove;
    const answer = await app.request('DELETE', `/v1/integrations/${ID}`, { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: ID, object: 'integration', credentials_last4: { access_token: 'lue9' }, deleted: true });
    expect(DeletedIntegrationSchema.safeParse(answer.json).success).toBe(true);
    expect(remove.mock.calls[0]![0]).toMatchObject({ integration_id: ID });
  });

  it('answers 404 param id for an unknown integration on every route, and for an id that is not itg_… without a call', async () => {
    clients.tracking.getIntegration = async () => Promise.reject(notFound('integration'));
    clients.tracking.updateIntegration = async () => Promise.reject(notFound('integration'));
    clients.tracking.deleteIntegration = async () => Promise.reject(notFound('integration'));
    clients.tracking.listDeliveries = async () => Promise.reject(notFound('integration'));
    clients.tracking.testIntegration = async () => Promise.reject(notFound('integration'));
    for (const [method, path, body] of [
      ['GET', `/v1/integrations/itg_nope`, undefined],
      ['PATCH', `/v1/integrations/itg_nope`, { enabled: true }],
      ['DELETE', `/v1/integrations/itg_nope`, undefined],
      ['GET', `/v1/integrations/itg_nope/deliveries`, undefined],
      ['POST', `/v1/integrations/itg_nope/test`, undefined],
    ] as const) {
      const answer = await app.request(method, path, { headers: FULL, ...(body ? { body } : {}) });
      expect([method, path, answer.status, answer.json.error?.code, answer.json.error?.param]).toEqual([method, path, 404, 'not_found', 'id']);
    }
    const stubs = clients.tracking;
    for (const name of ['getIntegration', 'updateIntegration', 'deleteIntegration', 'listDeliveries', 'testIntegration'] as const) stubs[name] = jest.fn();
    for (const [method, path] of [
      ['GET', '/v1/integrations/we_01jabc'],
      ['PATCH', '/v1/integrations/pay_1'],
      ['DELETE', '/v1/integrations/itg_'],
      ['GET', '/v1/integrations/itg_a.b/deliveries'],
      ['POST', '/v1/integrations/dlv_1/test'],
    ] as const) {
      const answer = await app.request(method, path, { headers: FULL, ...(method === 'PATCH' ? { body: { enabled: true } } : {}) });
      expect([method, path, answer.status, answer.json.error?.param]).toEqual([method, path, 404, 'id']);
    }
    for (const name of ['getIntegration', 'updateIntegration', 'deleteIntegration', 'listDeliveries', 'testIntegration'] as const) {
      expect(stubs[name]).not.toHaveBeenCalled();
    }
  });

  it('shows deliveries: empty strings as null, the request summary parsed, the answer as response', async () => {
    const notSent = protoDelivery({
      id: 'dlv_2',
      test: true,
      status: 'not_sent',
      reason: 'missing_test_code',
      reason_text: 'Venda de teste sem código de teste: informe test_event_code nas opções.',
      attempts: 0,
      request_summary: '',
      response_status: 0,
      response_body: '',
      delivered_at: '',
    });
    const retrying = protoDelivery({
      id: 'dlv_3',
      status: 'pending',
      attempts: 2,
      next_attempt_at: '2026-11-01T00:35:00.000Z',
      response_status: 0,
      response_body: 'connect ECONNREFUSED',
      delivered_at: '',
    });
    const list = jest.fn(async (_r: tracking.ListDeliveriesRequest) => ({ deliveries: [protoDelivery(), notSent, retrying], has_more: true }));
    clients.tracking.listDeliveries = list;
    const answer = await app.request('GET', `/v1/integrations/${ID}/deliveries?limit=3&starting_after=dlv_0&payment_id=pay_1`, { headers: FULL });
    expect(answer.status).toBe(200);
    expect(list.mock.calls[0]![0]).toMatchObject({ integration_id: ID, limit: 3, starting_after: 'dlv_0', payment_id: 'pay_1' });
    expect(answer.json.has_more).toBe(true);
    expect(answer.json.data[0]).toEqual({
      id: 'dlv_1',
      object: 'integration_delivery',
      integration_id: ID,
      payment_id: 'pay_1',
      event: 'purchase',
      test: false,
      status: 'delivered',
      reason: null,
      reason_text: null,
      attempts: 1,
      next_attempt_at: null,
      request: { event_name: 'Purchase', event_id: 'pay_1', value: 19.9 },
      response: { status: 200, body: '{"events_received":1}' },
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:01.000Z',
      delivered_at: '2026-11-01T00:00:01.000Z',
    });
    expect(answer.json.data[1]).toMatchObject({ status: 'not_sent', reason: 'missing_test_code', request: null, response: null, delivered_at: null, test: true });
    expect(answer.json.data[2]).toMatchObject({ status: 'pending', next_attempt_at: '2026-11-01T00:35:00.000Z', response: { status: null, body: 'connect ECONNREFUSED' } });
    expect(IntegrationDeliveryListSchema.safeParse(answer.json).success).toBe(true);

    await app.request('GET', `/v1/integrations/${ID}/deliveries`, { headers: FULL });
    expect(list.mock.calls[1]![0]).toMatchObject({ limit: 10, starting_after: '', payment_id: '' });
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['payment_id=a%20b', 'payment_id'],
      ['status=delivered', 'status'],
    ] as const) {
      const bad = await app.request('GET', `/v1/integrations/${ID}/deliveries?${query}`, { headers: FULL });
      expect([query, bad.status, bad.json.error?.param]).toEqual([query, 400, param]);
    }
  });

  it('fails loudly (500) on an undocumented delivery status rather than showing it', async () => {
    clients.tracking.listDeliveries = async () => ({ deliveries: [protoDelivery({ status: 'lost' })], has_more: false });
    const answer = await app.request('GET', `/v1/integrations/${ID}/deliveries`, { headers: FULL });
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('lost');
  });

  it('tests: 200 with the delivery of the test send; no approved sale yet is 404 param id with the service message', async () => {
    const test = jest.fn(async (_r: tracking.TestIntegrationRequest) => ({ delivery: protoDelivery({ test: true }) }));
    clients.tracking.testIntegration = test;
    const answer = await app.request('POST', `/v1/integrations/${ID}/test`, { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ object: 'integration_delivery', test: true, status: 'delivered', response: { status: 200 } });
    expect(IntegrationDeliverySchema.safeParse(answer.json).success).toBe(true);
    expect(test.mock.calls[0]![0]).toMatchObject({ integration_id: ID, caller: { restricted: false } });

    clients.tracking.testIntegration = async () =>
      Promise.reject(notFound('integration', 'Ainda não há venda aprovada para enviar como teste. Aprove um pagamento e tente de novo.'));
    const none = await app.request('POST', `/v1/integrations/${ID}/test`, { headers: FULL });
    expect(none.status).toBe(404);
    expect(none.json.error).toMatchObject({ code: 'not_found', param: 'id', message: expect.stringMatching(/venda aprovada/) });
  });

  it('documents examples that the schemas accept', () => {
    const doc = buildOpenApiDocument({ serverUrl: 'http://localhost' }) as unknown as { components: { schemas: Record<string, { example?: unknown }> } };
    const schemas = doc.components.schemas;
    const checks: Array<[string, ZodTypeAny]> = [
      ['CreateIntegration', CreateIntegrationSchema],
      ['UpdateIntegration', UpdateIntegrationSchema],
      ['IntegrationKind', IntegrationKindSchema],
      ['IntegrationKindList', IntegrationKindListSchema],
      ['Integration', IntegrationSchema],
      ['IntegrationList', IntegrationListSchema],
      ['DeletedIntegration', DeletedIntegrationSchema],
      ['IntegrationDelivery', IntegrationDeliverySchema],
      ['IntegrationDeliveryList', IntegrationDeliveryListSchema],
    ];
    for (const [name, schema] of checks) {
      expect({ name, example: schemas[name]?.example !== undefined, valid: schema.safeParse(schemas[name]?.example).success }).toEqual({ name, example: true, valid: true });
    }
    expect(Object.keys(schemas['Integration'] as object)).not.toContain('credentials');
    expect(JSON.stringify(schemas['Integration'])).not.toMatch(/"credentials"/);
  });
});

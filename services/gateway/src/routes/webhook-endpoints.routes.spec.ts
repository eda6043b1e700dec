import { common, type notifications, type webhooks } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };

function protoEndpoint(overrides: Partial<webhooks.WebhookEndpoint> = {}): webhooks.WebhookEndpoint {
  return {
    id: 'we_01jabc',
    url: 'https://loja.com.br/hook',
    events: ['payment.*'],
    only_source: '',
    description: '',
    enabled: true,
    disabled_reason: '',
    mode: common.Mode.MODE_TEST,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    previous_secret_expires_at: '',
    failing_since: '',
    ...overrides,
  };
}

describe('/v1/webhook-endpoints, /v1/webhook-deliveries and /v1/events over HTTP', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  it('creates an endpoint: 201 with the secret, once; reads never show it', async () => {
    const create = jest.fn(async (_r: webhooks.CreateWebhookEndpointRequest) => ({ endpoint: protoEndpoint({ only_source: 'key:key_bot' }), secret: 'whsec_abc' }));
    clients.webhooks.createWebhookEndpoint = create;
    clients.webhooks.getWebhookEndpoint = async () => ({ endpoint: protoEndpoint() });
    const answer = await app.request('POST', '/v1/webhook-endpoints', {
      headers: FULL,
      body: { url: 'https://loja.com.br/hook', events: ['payment.*'], only_source: 'key:key_bot' },
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe('/v1/webhook-endpoints/we_01jabc');
    expect(answer.json).toMatchObject({ id: 'we_01jabc', object: 'webhook_endpoint', secret: 'whsec_abc', only_source: 'key:key_bot', enabled: true, disabled_reason: null, mode: 'test' });
    expect(create.mock.calls[0]![0]).toMatchObject({ url: 'https://loja.com.br/hook', events: ['payment.*'], only_source: 'key:key_bot', description: '', caller: { restricted: false } });
    const read = await app.request('GET', '/v1/webhook-endpoints/we_01jabc', { headers: FULL });
    expect(read.status).toBe(200);
    expect(read.json.secret).toBeUndefined();
  });

  it('refuses restricted keys on every webhook route with 403 restricted_key, before any call', async () => {
    for (const [method, path] of [
      ['POST', '/v1/webhook-endpoints'],
      ['GET', '/v1/webhook-endpoints'],
      ['GET', '/v1/webhook-endpoints/we_1'],
      ['PATCH', '/v1/webhook-endpoints/we_1'],
      ['DELETE', '/v1/webhook-endpoints/we_1'],
      ['POST', '/v1/webhook-endpoints/we_1/rotate-secret'],
      ['GET', '/v1/webhook-endpoints/we_1/deliveries'],
      ['GET', '/v1/webhook-deliveries/whd_1'],
      ['POST', '/v1/webhook-deliveries/whd_1/resend'],
    ] as const) {
      const answer = await app.request(method, path, { headers: BOT, ...(method === 'GET' ? {} : { body: {} }) });
      expect([method, path, answer.status, answer.json.error?.code]).toEqual([method, path, 403, 'restricted_key']);
    }
  });

  it('validates the body in Portuguese with param (missing events, unknown field, bad types)', async () => {
    const missing = await app.request('POST', '/v1/webhook-endpoints', { headers: FULL, body: { url: 'https://x.com.br' } });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: 'parameter_missing', param: 'events' });
    const empty = await app.request('POST', '/v1/webhook-endpoints', { headers: FULL, body: { url: 'https://x.com.br', events: [] } });
    expect(empty.status).toBe(400);
    expect(empty.json.error.param).toBe('events');
    const unknown = await app.request('POST', '/v1/webhook-endpoints', { headers: FULL, body: { url: 'https://x.com.br', events: ['*'], secret: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.param).toBe('secret');
  });

  it('passes the service refusal of a URL through (400, param url)', async () => {
    clients.webhooks.createWebhookEndpoint = async () => {
      throw new AppError('parameter_invalid', { param: 'url', message: 'No modo real a URL precisa usar https.' });
    };
    const answer = await app.request('POST', '/v1/webhook-endpoints', { headers: FULL, body: { url: 'http://x.com.br', events: ['*'] } });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'parameter_invalid', param: 'url', message: 'No modo real a URL precisa usar https.' });
  });

  it('updates partially: only what was sent, events replaced only when sent; only_source null clears', async () => {
    const update = jest.fn(async (_r: webhooks.UpdateWebhookEndpointRequest) => ({ endpoint: protoEndpoint({ enabled: false, disabled_reason: 'by_request' }) }));
    clients.webhooks.updateWebhookEndpoint = update;
    const answer = await app.request('PATCH', '/v1/webhook-endpoints/we_01jabc', { headers: FULL, body: { enabled: false, only_source: null } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ enabled: false, disabled_reason: 'by_request' });
    const request = update.mock.calls[0]![0];
    expect(request).toMatchObject({ endpoint_id: 'we_01jabc', enabled: false, set_events: false, events: [], only_source: '' });
    expect(request.url).toBeUndefined();
    expect(request.description).toBeUndefined();
  });

  it('rotates the secret and answers the new one; deletes; 404 for an unknown endpoint', async () => {
    clients.webhooks.rotateWebhookSecret = async () => ({ endpoint: protoEndpoint({ previous_secret_expires_at: '2026-11-02T00:00:00.000Z' }), secret: 'whsec_new' });
    const rotated = await app.request('POST', '/v1/webhook-endpoints/we_01jabc/rotate-secret', { headers: FULL });
    expect(rotated.json).toMatchObject({ secret: 'whsec_new', previous_secret_expires_at: '2026-11-02T00:00:00.000Z' });
    clients.webhooks.deleteWebhookEndpoint = async () => ({ id: 'we_01jabc' });
    const deleted = await app.request('DELETE', '/v1/webhook-endpoints/we_01jabc', { headers: FULL });
    expect(deleted.json).toEqual({ id: 'we_01jabc', object: 'webhook_endpoint', deleted: true });
    clients.webhooks.getWebhookEndpoint = async () => {
      throw new AppError('not_found', { param: 'endpoint_id' });
    };
    const missing = await app.request('GET', '/v1/webhook-endpoints/we_nope', { headers: FULL });
    expect(missing.status).toBe(404);
    expect(missing.json.error.param).toBe('id');
  });

  it('shows deliveries with every attempt; a missing status code is null', async () => {
    const delivery: webhooks.WebhookDelivery = {
      id: 'whd_1', endpoint_id: 'we_01jabc', event_id: 'evt_1', event_type: 'payment.succeeded', status: 'pending',
      attempts: [{ number: 1, at: '2026-11-01T00:00:00.000Z', status_code: 0, latency_ms: 10_000, error: 'timeout after 10000 ms', manual: false }],
      next_attempt_at: '2026-11-01T00:00:30.000Z', created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z',
    };
    const list = jest.fn(async (_r: webhooks.ListWebhookDeliveriesRequest) => ({ data: [delivery], has_more: false }));
    clients.webhooks.listWebhookDeliveries = list;
    const answer = await app.request('GET', '/v1/webhook-endpoints/we_01jabc/deliveries?status=pending&limit=5', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json.data[0]).toMatchObject({ object: 'webhook_delivery', attempts: [{ status_code: null, error: 'timeout after 10000 ms' }] });
    expect(list.mock.calls[0]![0]).toMatchObject({ endpoint_id: 'we_01jabc', status: 'pending', limit: 5 });
    clients.webhooks.resendWebhookDelivery = async () => ({ delivery });
    const resent = await app.request('POST', '/v1/webhook-deliveries/whd_1/resend', { headers: FULL });
    expect(resent.status).toBe(202);
    const bad = await app.request('GET', '/v1/webhook-endpoints/we_01jabc/deliveries?status=lost', { headers: FULL });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe('status');
  });

  it('GET /v1/events passes the filters; restricted keys may read (scoped downstream)', async () => {
    const listEvents = jest.fn(async (_r: notifications.ListEventsRequest) => ({ data: [], has_more: false }));
    clients.notifications.listEvents = listEvents;
    const answer = await app.request('GET', '/v1/events?type=payment.*&created[gte]=1790000000&created[lte]=1790003600&payment_id=pay_1&limit=3', { headers: BOT });
    expect(answer.status).toBe(200);
    expect(listEvents.mock.calls[0]![0]).toMatchObject({
      type: 'payment.*', created_gte: 1_790_000_000, created_lte: 1_790_003_600, payment_id: 'pay_1', limit: 3, caller: { restricted: true, key_id: 'key_bot' },
    });
    const bad = await app.request('GET', '/v1/events?created[gte]=ontem', { headers: FULL });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe('created[gte]');
  });
});

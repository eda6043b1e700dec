import { MESSAGES_PT_BR } from '@orquestra/platform';
import { createDownstreamClients } from '../grpc/downstream.clients';
import { GrpcReadinessProbe } from '../health/readiness.probe';
import { buildOpenApiDocument } from '../openapi/openapi.document';
import { TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

// The gateway with every gRPC client pointed at an address where nothing listens.
const NOWHERE = '127.0.0.1:1';

describe('gateway over HTTP, with every backend unreachable', () => {
  let app: RunningApp;
  const clients = createDownstreamClients({ accounts: NOWHERE, payments: NOWHERE, providers: NOWHERE, routing: NOWHERE, notifications: NOWHERE, subscriptions: NOWHERE, payouts: NOWHERE, vault: NOWHERE, tracking: NOWHERE }, 2_000);
  const readiness = new GrpcReadinessProbe(
    [
      { name: 'accounts', address: NOWHERE },
      { name: 'payments', address: NOWHERE },
    ],
    { cacheMs: 0, deadlineMs: 500 },
  );

  beforeAll(async () => {
    app = await startApp({ clients, readiness });
  });
  afterAll(async () => {
    await app.close();
    clients.close();
    readiness.close();
  });

  it('answers an unknown route with 404 route_not_found in the spec body, with or without a key', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/v1/nope'],
      ['DELETE', '/v1/payments'],
    ] as const) {
      const answer = await app.request(method, path);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.json).toEqual({
        error: { type: 'invalid_request_error', message: MESSAGES_PT_BR.route_not_found, code: 'route_not_found', param: null },
      });
    }
  });

  it('answers a missing or malformed key with 401 unauthenticated', async () => {
    const expected = {
      error: { type: 'authentication_error', message: MESSAGES_PT_BR.unauthenticated, code: 'unauthenticated', param: null },
    };
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer not-a-key' }, { authorization: 'Bearer ' }];
    for (const headers of attempts) {
      const answer = await app.request('GET', '/v1/payments', { headers });
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual(expected);
    }
  });

  it('checks the key before reading the body: malformed JSON without a key is 401', async () => {
    const answer = await app.request('POST', '/v1/payments', { body: '{"amount": 10,', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe('unauthenticated');
  });

  it('answers 503 service_unavailable with a clean body when accounts cannot be reached', async () => {
    const answer = await app.request('GET', '/v1/payments', { headers: { authorization: `Bearer ${TEST_KEY}` } });
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({
      error: { type: 'api_error', message: MESSAGES_PT_BR.service_unavailable, code: 'service_unavailable', param: null },
    });
    expect(answer.text).not.toMatch(/ECONNREFUSED|at .*\.ts|UNAVAILABLE/);
  });

  it('answers 503 on the public QR route and tells providers to retry their webhook', async () => {
    const qr = await app.request('GET', '/qr/pay_01abc.png');
    expect(qr.status).toBe(503);
    expect(qr.json.error.code).toBe('service_unavailable');
    const webhook = await app.request('POST', '/webhooks/providers/pa_1?hmac=s3cr3t&ignorar=/pix', { body: { pix: [] } });
    expect(webhook.status).toBe(503);
  });

  it('gives every request an id, keeping a usable client id', async () => {
    const generated = await app.request('GET', '/nope');
    expect(generated.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
    const kept = await app.request('GET', '/nope', { headers: { 'x-request-id': 'bot-42:retry.1' } });
    expect(kept.headers.get('x-request-id')).toBe('bot-42:retry.1');
    const replaced = await app.request('GET', '/nope', { headers: { 'x-request-id': 'a b\tc' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('is alive but not ready', async () => {
    expect((await app.request('GET', '/healthz')).json).toEqual({ status: 'ok' });
    const ready = await app.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json).toEqual({ status: 'not_ready', checks: { accounts: 'UNREACHABLE', payments: 'UNREACHABLE' } });
  });

  it('serves the OpenAPI document without a key', async () => {
    const answer = await app.request('GET', '/v1/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.json.openapi).toBe('3.1.0');
  });

  it('serves every documented route (none of them is route_not_found)', async () => {
    const document = buildOpenApiDocument({ serverUrl: app.url });
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of ['get', 'post'] as const) {
        if (!(item as Record<string, unknown>)[method]) continue;
        const concrete = path.replace('{id}', 'pay_1').replace('{paymentId}', 'pay_1').replace('{accountId}', 'pa_1').replace('{subPath}', 'pix').replace('{file}', 'init.js');
        const answer = await app.request(method.toUpperCase(), concrete);
        expect({ route: `${method} ${path}`, code: answer.json?.error?.code }).not.toEqual({ route: `${method} ${path}`, code: 'route_not_found' });
      }
    }
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { InvalidRequestError, PermissionError } from '../errors';

// A real HTTP server plays the API; the test reads the requests the resources send.

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
}

const INTEGRATION = { id: 'itg_1', object: 'integration', kind: 'meta', credentials_last4: { access_token: 'abcd' } };
const DELIVERY = { id: 'dlv_1', object: 'integration_delivery', integration_id: 'itg_1', test: true, status: 'delivered' };
let server: Server;
let orquestra: Orquestra;
let seen: Seen[] = [];
let pages: Array<{ object: 'list'; data: Array<{ id: string }>; has_more: boolean }> = [];
/** Answers before the normal one (status codes), to check what is and is not retried. */
let failures: number[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const url = req.url ?? '';
      const failure = failures.shift();
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        const code = failure === 400 ? 'parameter_invalid' : failure === 403 ? 'restricted_key' : 'service_unavailable';
        const type = failure === 400 ? 'invalid_request_error' : failure === 403 ? 'permission_error' : 'api_error';
        res.end(JSON.stringify({ error: { type, message: 'Erro.', code, param: failure === 400 ? 'options.pixel_id' : null } }));
        return;
      }
      const answer =
        url === '/v1/integration-kinds'
          ? { object: 'list', data: [{ id: 'utmify', object: 'integration_kind' }], has_more: false }
          : url === '/v1/integrations' && req.method === 'GET'
            ? { object: 'list', data: [INTEGRATION], has_more: false }
            : url.includes('/deliveries')
              ? pages.shift()
              : url.endsWith('/test')
                ? DELIVERY
                : req.method === 'DELETE'
                  ? { ...INTEGRATION, deleted: true }
                  : INTEGRATION;
      res.writeHead(req.method === 'POST' && url === '/v1/integrations' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  orquestra = new Orquestra({ apiKey: 'svc_test_x', baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  pages = [];
  failures = [];
});

describe('integrationKinds and integrations resources', () => {
  it('lists the kinds and the integrations', async () => {
    expect((await orquestra.integrationKinds.list()).data[0]).toMatchObject({ id: 'utmify', object: 'integration_kind' });
    expect((await orquestra.integrations.list()).data[0]).toMatchObject({ id: 'itg_1', credentials_last4: { access_token: 'abcd' } });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /v1/integration-kinds', 'GET /v1/integrations']);
  });

  it('creates with the body as given, no Idempotency-Key, and does not retry the create on a 503', async () => {
    const params = { kind: 'meta' as const, name: 'Pixel', options: { pixel_id: '123' }, credentials: { access_token: 'EAAG-secret' } };
    const created = await orquestra.integrations.create(params);
    expect(created).toMatchObject({ id: 'itg_1', object: 'integration' });
    expect(seen).toEqual([{ method: 'POST', url: '/v1/integrations', idempotencyKey: undefined, body: JSON.stringify(params) }]);
    seen = [];
    failures = [503];
    await expect(orquestra.integrations.create(params)).rejects.toMatchObject({ statusCode: 503 });
    expect(seen).toHaveLength(1);
  });

  it('retrieves, updates with PATCH, deletes and tests, with the id as one path segment', async () => {
    await orquestra.integrations.retrieve('itg/1');
    await orquestra.integrations.update('itg_1', { enabled: false, options: { test_event_code: '' } });
    expect(await orquestra.integrations.delete('itg_1')).toMatchObject({ id: 'itg_1', deleted: true });
    expect(await orquestra.integrations.test('itg_1')).toMatchObject({ object: 'integration_delivery', test: true });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
      'GET /v1/integrations/itg%2F1 ',
      'PATCH /v1/integrations/itg_1 {"enabled":false,"options":{"test_event_code":""}}',
      'DELETE /v1/integrations/itg_1 ',
      'POST /v1/integrations/itg_1/test ',
    ]);
  });

  it('lists deliveries with filters and walks every page', async () => {
    pages = [{ object: 'list', data: [{ id: 'dlv_1' }], has_more: false }];
    await orquestra.integrations.listDeliveries('itg_1', { payment_id: 'pay_1', limit: 5 });
    pages = [
      { object: 'list', data: [{ id: 'dlv_a' }, { id: 'dlv_b' }], has_more: true },
      { object: 'list', data: [{ id: 'dlv_c' }], has_more: false },
    ];
    const all: string[] = [];
    for await (const delivery of orquestra.integrations.listDeliveriesAll('itg_1', { limit: 2 })) all.push(delivery.id);
    expect(all).toEqual(['dlv_a', 'dlv_b', 'dlv_c']);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /v1/integrations/itg_1/deliveries?payment_id=pay_1&limit=5',
      'GET /v1/integrations/itg_1/deliveries?limit=2',
      'GET /v1/integrations/itg_1/deliveries?limit=2&starting_after=dlv_b',
    ]);
  });

  it('raises typed errors with param (400) and restricted_key (403)', async () => {
    failures = [400];
    const invalid = await orquestra.integrations.create({ kind: 'meta', credentials: { access_token: 'x' } }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ param: 'options.pixel_id', statusCode: 400 });
    failures = [403];
    const denied = await orquestra.integrations.list().catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(PermissionError);
    expect(denied).toMatchObject({ code: 'restricted_key' });
  });
});

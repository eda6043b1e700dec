import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { ApiError } from '../errors';

// A real HTTP server plays the API; the test reads the requests the resources send.

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
}

let server: Server;
let orquestra: Orquestra;
let seen: Seen[] = [];
let pages: Array<{ data: Array<{ id: string }>; has_more: boolean }> = [];
/** Answers to POST /v1/subaccounts before the normal 201 (status codes), to exercise retries. */
let createFailures: number[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const creating = req.method === 'POST' && req.url === '/v1/subaccounts';
      const failure = creating ? createFailures.shift() : undefined;
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Serviço indisponível.', code: 'service_unavailable', param: null } }));
        return;
      }
      const answer = req.url?.endsWith('/onboarding-link')
        ? { url: 'https://onboarding.exemplo.com/abc', expires_at: '2026-12-02T12:00:00.000Z', qr_code_base64: null }
        : req.url?.endsWith('/balance')
          ? { object: 'balance', available: 1000, pending: null, currency: 'BRL', as_of: '2026-12-01T12:00:00.000Z' }
          : req.method === 'GET' && req.url?.startsWith('/v1/subaccounts?')
            ? { object: 'list', ...pages.shift() }
            : { id: 'sub_1', object: 'subaccount' };
      res.writeHead(creating ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  orquestra = new Orquestra({ apiKey: 'svc_test_sdk', baseUrl, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  pages = [];
  createFailures = [];
});

describe('subaccounts resource', () => {
  const params = {
    provider_account_id: 'pa_1',
    name: 'Ana Souza',
    document: '529.982.247-25',
    pix_key: { key_type: 'email' as const, key: 'ana@loja.com.br' },
    metadata: { seller: '42' },
  };

  it('creates with an Idempotency-Key, a fresh UUID or the one given, and the body as given', async () => {
    await orquestra.subaccounts.create(params);
    await orquestra.subaccounts.create({ ...params, type: 'individual' }, { idempotencyKey: 'vendedor-42' });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /v1/subaccounts', 'POST /v1/subaccounts']);
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.idempotencyKey).toBe('vendedor-42');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(params);
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ ...params, type: 'individual' });
  });

  it('retries a failed create with the same Idempotency-Key, so the seller is never registered twice', async () => {
    createFailures = [503];
    expect(await orquestra.subaccounts.create(params)).toEqual({ id: 'sub_1', object: 'subaccount' });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.idempotencyKey).toBe(seen[0]?.idempotencyKey);

    seen = [];
    createFailures = [503, 503, 503];
    await expect(orquestra.subaccounts.create(params, { idempotencyKey: 'vendedor-43' })).rejects.toBeInstanceOf(ApiError);
    expect(seen.map(({ idempotencyKey }) => idempotencyKey)).toEqual(['vendedor-43', 'vendedor-43', 'vendedor-43']);
  });

  it('retrieves, updates, syncs, asks for the onboarding link and reads the balance by id, escaping it', async () => {
    await orquestra.subaccounts.retrieve('sub_1');
    await orquestra.subaccounts.update('sub_1', { name: 'Ana Souza ME', metadata: { tier: 'gold' } });
    await orquestra.subaccounts.sync('sub/1');
    expect(await orquestra.subaccounts.onboardingLink('sub_1')).toEqual({
      url: 'https://onboarding.exemplo.com/abc',
      expires_at: '2026-12-02T12:00:00.000Z',
      qr_code_base64: null,
    });
    expect(await orquestra.subaccounts.balance('sub_1')).toEqual({
      object: 'balance',
      available: 1000,
      pending: null,
      currency: 'BRL',
      as_of: '2026-12-01T12:00:00.000Z',
    });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /v1/subaccounts/sub_1',
      'PATCH /v1/subaccounts/sub_1',
      'POST /v1/subaccounts/sub%2F1/sync',
      'POST /v1/subaccounts/sub_1/onboarding-link',
      'GET /v1/subaccounts/sub_1/balance',
    ]);
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ name: 'Ana Souza ME', metadata: { tier: 'gold' } });
    expect(seen.slice(1).map(({ idempotencyKey }) => idempotencyKey)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('lists one page with the filters, and every page with listAll', async () => {
    pages = [{ data: [{ id: 'sub_3' }], has_more: false }];
    await orquestra.subaccounts.list({ status: 'active', provider_account_id: 'pa_1', q: 'Ana', limit: 5 });
    expect(seen[0]?.url).toBe('/v1/subaccounts?status=active&provider_account_id=pa_1&q=Ana&limit=5');

    seen = [];
    pages = [
      { data: [{ id: 'sub_3' }, { id: 'sub_2' }], has_more: true },
      { data: [{ id: 'sub_1' }], has_more: false },
    ];
    const ids: string[] = [];
    for await (const subaccount of orquestra.subaccounts.listAll({ status: 'pending', limit: 2 })) ids.push(subaccount.id);
    expect(ids).toEqual(['sub_3', 'sub_2', 'sub_1']);
    expect(seen.map(({ url }) => url)).toEqual(['/v1/subaccounts?status=pending&limit=2', '/v1/subaccounts?status=pending&limit=2&starting_after=sub_2']);
  });
});

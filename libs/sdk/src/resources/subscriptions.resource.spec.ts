import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';

// A real HTTP server plays the API; the test reads the requests the resource sends.

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

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const answer = req.method === 'GET' && req.url?.startsWith('/v1/subscriptions?') ? { object: 'list', ...pages.shift() } : { id: 'sub_1', object: 'subscription' };
      res.writeHead(req.method === 'POST' && req.url === '/v1/subscriptions' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  orquestra = new Orquestra({ apiKey: 'svc_test_sdk', baseUrl, retry: { maxRetries: 0 } });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  pages = [];
});

describe('subscriptions resource', () => {
  const params = { customer: { name: 'Maria', document: '52998224725' }, frequency: 'monthly' as const, amount: 2990 };

  it('creates with an Idempotency-Key, a fresh UUID or the one given', async () => {
    await orquestra.subscriptions.create(params);
    await orquestra.subscriptions.create(params, { idempotencyKey: 'assinatura-1' });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /v1/subscriptions', 'POST /v1/subscriptions']);
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.idempotencyKey).toBe('assinatura-1');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(params);
  });

  it('retrieves, cancels and simulates by id, escaping it', async () => {
    await orquestra.subscriptions.retrieve('sub_1');
    await orquestra.subscriptions.cancel('sub_1');
    await orquestra.subscriptions.simulate('sub/1');
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /v1/subscriptions/sub_1',
      'POST /v1/subscriptions/sub_1/cancel',
      'POST /v1/subscriptions/sub%2F1/simulate',
    ]);
  });

  it('charges a cycle with an Idempotency-Key and the body given', async () => {
    await orquestra.subscriptions.charge('sub_1', { amount: 1500, due_date: '2026-12-10' }, { idempotencyKey: 'ciclo-3' });
    await orquestra.subscriptions.charge('sub_1');
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /v1/subscriptions/sub_1/charge', 'POST /v1/subscriptions/sub_1/charge']);
    expect(seen[0]?.idempotencyKey).toBe('ciclo-3');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ amount: 1500, due_date: '2026-12-10' });
    expect(seen[1]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists one page with the filter, and every page with listAll', async () => {
    pages = [{ data: [{ id: 'sub_3' }], has_more: false }];
    await orquestra.subscriptions.list({ status: 'active', limit: 5 });
    expect(seen[0]?.url).toBe('/v1/subscriptions?status=active&limit=5');

    seen = [];
    pages = [
      { data: [{ id: 'sub_3' }, { id: 'sub_2' }], has_more: true },
      { data: [{ id: 'sub_1' }], has_more: false },
    ];
    const ids: string[] = [];
    for await (const subscription of orquestra.subscriptions.listAll({ status: 'pending', limit: 2 })) ids.push(subscription.id);
    expect(ids).toEqual(['sub_3', 'sub_2', 'sub_1']);
    expect(seen.map(({ url }) => url)).toEqual(['/v1/subscriptions?status=pending&limit=2', '/v1/subscriptions?status=pending&limit=2&starting_after=sub_2']);
  });
});

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
/** Answers to POST /v1/payouts before the normal 201 (status codes), to exercise retries. */
let createFailures: number[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const creating = req.method === 'POST' && req.url === '/v1/payouts';
      const failure = creating ? createFailures.shift() : undefined;
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Serviço indisponível.', code: 'service_unavailable', param: null } }));
        return;
      }
      const answer =
        req.url === '/v1/balances'
          ? { object: 'list', data: [{ provider_account_id: 'pa_1', available: 1000 }], payouts_api_enabled: true }
          : req.url === '/v1/payout-destinations'
            ? { object: 'list', data: [{ type: 'pix_key', destination_id: 'pdest_1' }] }
            : req.method === 'GET' && req.url?.startsWith('/v1/payouts?')
              ? { object: 'list', ...pages.shift() }
              : { id: 'po_1', object: 'payout' };
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

describe('payouts resource', () => {
  const params = { provider_account_id: 'pa_1', amount: 15000, destination: { type: 'pix_key' as const, destination_id: 'pdest_1' } };

  it('creates with an Idempotency-Key, a fresh UUID or the one given, and the body as given', async () => {
    await orquestra.payouts.create(params);
    await orquestra.payouts.create({ ...params, destination: { type: 'account' } }, { idempotencyKey: 'repasse-1' });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /v1/payouts', 'POST /v1/payouts']);
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.idempotencyKey).toBe('repasse-1');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(params);
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ ...params, destination: { type: 'account' } });
  });

  it('retries a failed create with the same Idempotency-Key, so it can never pay twice', async () => {
    createFailures = [503];
    expect(await orquestra.payouts.create(params)).toEqual({ id: 'po_1', object: 'payout' });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.idempotencyKey).toBe(seen[0]?.idempotencyKey);

    seen = [];
    createFailures = [503, 503, 503];
    await expect(orquestra.payouts.create(params, { idempotencyKey: 'repasse-2' })).rejects.toBeInstanceOf(ApiError);
    expect(seen.map(({ idempotencyKey }) => idempotencyKey)).toEqual(['repasse-2', 'repasse-2', 'repasse-2']);
  });

  it('retrieves and syncs by id, escaping it', async () => {
    await orquestra.payouts.retrieve('po_1');
    await orquestra.payouts.sync('po/1');
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /v1/payouts/po_1', 'POST /v1/payouts/po%2F1/sync']);
    expect(seen[1]?.idempotencyKey).toBeUndefined();
  });

  it('lists one page with the filters, and every page with listAll', async () => {
    pages = [{ data: [{ id: 'po_3' }], has_more: false }];
    await orquestra.payouts.list({ status: 'paid', provider_account_id: 'pa_1', limit: 5 });
    expect(seen[0]?.url).toBe('/v1/payouts?status=paid&provider_account_id=pa_1&limit=5');

    seen = [];
    pages = [
      { data: [{ id: 'po_3' }, { id: 'po_2' }], has_more: true },
      { data: [{ id: 'po_1' }], has_more: false },
    ];
    const ids: string[] = [];
    for await (const payout of orquestra.payouts.listAll({ status: 'processing', limit: 2 })) ids.push(payout.id);
    expect(ids).toEqual(['po_3', 'po_2', 'po_1']);
    expect(seen.map(({ url }) => url)).toEqual(['/v1/payouts?status=processing&limit=2', '/v1/payouts?status=processing&limit=2&starting_after=po_2']);
  });
});

describe('balances and payout destinations resources', () => {
  it('lists the balances and the saved Pix keys', async () => {
    expect(await orquestra.balances.list()).toEqual({ object: 'list', data: [{ provider_account_id: 'pa_1', available: 1000 }], payouts_api_enabled: true });
    expect(await orquestra.payoutDestinations.list()).toEqual({ object: 'list', data: [{ type: 'pix_key', destination_id: 'pdest_1' }] });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /v1/balances', 'GET /v1/payout-destinations']);
  });
});

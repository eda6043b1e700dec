import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { ConflictError } from '../errors';

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
/** Answers to POST …/withdrawals before the normal 201 (status codes), to exercise retries. */
let createFailures: number[] = [];

const WITHDRAWAL = { id: 'po_1', object: 'payout', subaccount_id: 'sub_1', destination: { type: 'subaccount' }, amount: 7777, amount_requested: 1500, whole_balance: true };

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const creating = req.method === 'POST';
      const failure = creating ? createFailures.shift() : undefined;
      if (failure !== undefined) {
        const code = failure === 409 ? 'subaccount_not_active' : 'service_unavailable';
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: failure === 409 ? 'invalid_request_error' : 'api_error', message: 'A subconta sub_1 está pending.', code, param: failure === 409 ? 'id' : null } }));
        return;
      }
      res.writeHead(creating ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(creating ? WITHDRAWAL : { object: 'list', ...pages.shift() }));
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

describe('subaccount withdrawals resource', () => {
  it('creates with an Idempotency-Key (a fresh UUID or the one given) and the body as given, escaping the id; answers the payout', async () => {
    expect(await orquestra.subaccounts.withdrawals.create('sub_1', { amount: 1500 })).toEqual(WITHDRAWAL);
    await orquestra.subaccounts.withdrawals.create('sub/1', { amount: 1500, description: 'Saque', metadata: { lote: '7' } }, { idempotencyKey: 'saque-7' });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /v1/subaccounts/sub_1/withdrawals', 'POST /v1/subaccounts/sub%2F1/withdrawals']);
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.idempotencyKey).toBe('saque-7');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ amount: 1500 });
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ amount: 1500, description: 'Saque', metadata: { lote: '7' } });
  });

  it('retries a failed create with the same Idempotency-Key, so the money never leaves twice; a refusal is a ConflictError with code and param', async () => {
    createFailures = [503];
    await orquestra.subaccounts.withdrawals.create('sub_1', { amount: 1500 });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.idempotencyKey).toBe(seen[0]?.idempotencyKey);

    seen = [];
    createFailures = [409];
    const refused = await orquestra.subaccounts.withdrawals.create('sub_1', { amount: 1500 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ statusCode: 409, code: 'subaccount_not_active', param: 'id', message: 'A subconta sub_1 está pending.' });
    // A 409 is an answer, not a transient failure: not retried.
    expect(seen).toHaveLength(1);
  });

  it('lists one page and every page with listAll, without an Idempotency-Key', async () => {
    pages = [{ data: [{ id: 'po_3' }], has_more: false }];
    await orquestra.subaccounts.withdrawals.list('sub_1', { limit: 5 });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/subaccounts/sub_1/withdrawals?limit=5', idempotencyKey: undefined });

    seen = [];
    pages = [
      { data: [{ id: 'po_3' }, { id: 'po_2' }], has_more: true },
      { data: [{ id: 'po_1' }], has_more: false },
    ];
    const ids: string[] = [];
    for await (const payout of orquestra.subaccounts.withdrawals.listAll('sub_1', { limit: 2 })) ids.push(payout.id);
    expect(ids).toEqual(['po_3', 'po_2', 'po_1']);
    expect(seen.map(({ url }) => url)).toEqual(['/v1/subaccounts/sub_1/withdrawals?limit=2', '/v1/subaccounts/sub_1/withdrawals?limit=2&starting_after=po_2']);
  });
});

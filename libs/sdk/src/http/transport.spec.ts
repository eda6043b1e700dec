import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { ApiError, ConnectionError, ConflictError, IdempotencyError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError, RequestAbortedError } from '../errors';

// A real HTTP server plays the API with scripted answers; the SDK talks to it over the network.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Answer = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | 'drop';

let server: Server;
let baseUrl: string;
let script: Answer[] = [];
let seen: Seen[] = [];
const waits: number[] = [];

function client(retry = {}): Orquestra {
  return new Orquestra({
    apiKey: 'svc_test_sdk',
    baseUrl,
    retry: { maxRetries: 2, initialDelayMs: 10, maxDelayMs: 40, ...retry },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
}

const errorBody = (code: string, type: string, param: string | null = null) => ({ error: { type, code, param, message: `mensagem ${code}` } });
const payment = { id: 'pay_1', object: 'payment', status: 'pending' };

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = script.shift() ?? { status: 500, body: errorBody('internal', 'api_error') };
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}`, ...answer.headers });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  script = [];
  seen = [];
  waits.length = 0;
});

describe('SDK transport', () => {
  it('sends the bearer key, JSON and a UUID Idempotency-Key on create, and returns the body', async () => {
    script = [{ status: 201, body: payment }];
    const created = await client().payments.create({ method: 'pix', amount: 1990, customer: { name: 'Maria' } });
    expect(created).toEqual(payment);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/payments' });
    expect(seen[0]!.headers['authorization']).toBe('Bearer svc_test_sdk');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(JSON.parse(seen[0]!.body)).toEqual({ method: 'pix', amount: 1990, customer: { name: 'Maria' } });
  });

  it('uses the caller key when given, and a new key for each create', async () => {
    script = [{ status: 201, body: payment }, { status: 201, body: payment }, { status: 201, body: payment }];
    await client().payments.create({ amount: 1, customer: { name: 'A' } }, { idempotencyKey: 'pedido-42' });
    await client().payments.create({ amount: 1, customer: { name: 'A' } });
    await client().payments.create({ amount: 1, customer: { name: 'A' } });
    expect(seen.map((s) => s.headers['idempotency-key'])[0]).toBe('pedido-42');
    expect(seen[1]!.headers['idempotency-key']).not.toBe(seen[2]!.headers['idempotency-key']);
  });

  it('retries a create on 503 and on a dropped connection with the SAME key, then succeeds', async () => {
    script = [{ status: 503, body: errorBody('service_unavailable', 'api_error') }, 'drop', { status: 201, body: payment }];
    await expect(client().payments.create({ amount: 1, customer: { name: 'A' } })).resolves.toEqual(payment);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(5);
    expect(waits[0]).toBeLessThanOrEqual(10);
    expect(waits[1]).toBeGreaterThanOrEqual(10);
    expect(waits[1]).toBeLessThanOrEqual(20);
  });

  it('honours Retry-After on 429', async () => {
    script = [{ status: 429, headers: { 'retry-after': '2' }, body: errorBody('provider_rate_limited', 'api_error') }, { status: 200, body: payment }];
    await client().payments.retrieve('pay_1');
    expect(waits).toEqual([2000]);
  });

  it('raises the last error once the retries run out', async () => {
    script = [500, 502, 504].map((status) => ({ status, body: errorBody('internal', 'api_error') }));
    const error = await client().payments.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 504, code: 'internal', requestId: 'req_3' });
    expect(seen).toHaveLength(3);
  });

  it('never retries a POST without Idempotency-Key (cancel), nor any 4xx', async () => {
    script = [{ status: 503, body: errorBody('service_unavailable', 'api_error') }];
    await expect(client().payments.cancel('pay_1')).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();

    script = [{ status: 400, body: errorBody('parameter_invalid', 'invalid_request_error', 'customer.document') }];
    const error = await client().payments.create({ amount: 1, customer: { name: 'A', document: '1' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'customer.document', statusCode: 400, message: 'mensagem parameter_invalid' });
    expect(seen).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than allowed', async () => {
    script = [{ status: 503, headers: { 'retry-after': '3600' }, body: errorBody('service_unavailable', 'api_error') }];
    await expect(client().payments.retrieve('pay_1')).rejects.toMatchObject({ statusCode: 503 });
    expect(waits).toEqual([]);
  });

  it('maps statuses and types to error classes', async () => {
    const cases: Array<[number, string, string, unknown]> = [
      [403, 'restricted_key', 'permission_error', PermissionError],
      [404, 'not_found', 'invalid_request_error', NotFoundError],
      [409, 'idempotency_conflict', 'idempotency_error', IdempotencyError],
      [409, 'payment_not_cancelable', 'invalid_request_error', ConflictError],
    ];
    for (const [status, code, type, cls] of cases) {
      script = [{ status, body: errorBody(code, type) }];
      const error = await client().payments.retrieve('pay_1').catch((e: unknown) => e);
      expect({ code, isClass: error instanceof (cls as typeof Error) }).toEqual({ code, isClass: true });
    }
    script = [{ status: 429, body: errorBody('provider_rate_limited', 'api_error') }];
    await expect(client({ maxRetries: 0 }).payments.retrieve('pay_1')).rejects.toBeInstanceOf(RateLimitError);
  });

  it('raises ConnectionError when nothing answers, after retrying reads', async () => {
    const dead = new Orquestra({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:9', retry: { maxRetries: 1, initialDelayMs: 1 }, sleep: async () => undefined });
    await expect(dead.payments.retrieve('pay_1')).rejects.toBeInstanceOf(ConnectionError);
  });

  it('encodes ids and query parameters, and follows pages with listAll', async () => {
    script = [
      { status: 200, body: { object: 'list', data: [{ id: 'pay_3' }, { id: 'pay_2' }], has_more: true } },
      { status: 200, body: { object: 'list', data: [{ id: 'pay_1' }], has_more: false } },
    ];
    const ids: string[] = [];
    for await (const p of client().payments.listAll({ limit: 2, status: 'pending' })) ids.push(p.id);
    expect(ids).toEqual(['pay_3', 'pay_2', 'pay_1']);
    expect(seen.map((s) => s.url)).toEqual(['/v1/payments?limit=2&status=pending', '/v1/payments?limit=2&status=pending&starting_after=pay_2']);
    script = [{ status: 200, body: payment }];
    await client().payments.retrieve('pay/../x');
    expect(seen[2]!.url).toBe('/v1/payments/pay%2F..%2Fx');
  });

  it('takes per-request options: another API key, Idempotency-Key, maxRetries', async () => {
    script = [{ status: 201, body: payment }, { status: 503, body: errorBody('service_unavailable', 'api_error') }];
    await client().payments.create({ amount: 1, customer: { name: 'A' } }, { apiKey: 'svc_test_other', idempotencyKey: 'pedido-7' });
    expect(seen[0]!.headers['authorization']).toBe('Bearer svc_test_other');
    expect(seen[0]!.headers['idempotency-key']).toBe('pedido-7');
    await expect(client().payments.retrieve('pay_1', { maxRetries: 0 })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['authorization']).toBe('Bearer svc_test_sdk');
  });

  it('sends an Idempotency-Key only to routes that honour one (a cancel carrying one is still not retried)', async () => {
    script = [{ status: 503, body: errorBody('service_unavailable', 'api_error') }];
    await expect(client().payments.cancel('pay_1', { idempotencyKey: 'k-1' })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('aborts a try that exceeds the per-request timeout, then retries a read', async () => {
    // The first answer comes only after 8 s: well under that means the 1 s timeout cut the try. The
    // timeout also applies to the retry, whose answer is immediate: 1 s leaves a loaded machine room
    // (with 100 ms the retry itself timed out there, and the call failed).
    script = [{ status: 200, body: payment, delayMs: 8_000 }, { status: 200, body: payment }];
    const started = Date.now();
    await expect(client().payments.retrieve('pay_1', { timeout: 1_000 })).resolves.toMatchObject({ id: 'pay_1' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen).toHaveLength(2);

    script = [{ status: 201, body: payment, delayMs: 1_000 }];
    const lost = await client().payments.cancel('pay_1', { timeout: 100 }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(ConnectionError);
    expect(lost).toMatchObject({ code: 'timeout' });
  });

  it('stops at once, retries included, when the caller aborts its signal', async () => {
    script = [{ status: 200, body: payment, delayMs: 1_000 }];
    const controller = new AbortController();
    const call = client().payments.retrieve('pay_1', { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const error = await call;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: 'request_aborted', cause: new Error('user left') });
    expect(seen).toHaveLength(1);

    // An abort during the backoff wait ends the call without the next try.
    const slow = new Orquestra({ apiKey: 'svc_test_sdk', baseUrl, retry: { maxRetries: 2, initialDelayMs: 5_000, maxDelayMs: 5_000 } });
    script = [{ status: 503, body: errorBody('service_unavailable', 'api_error') }, { status: 200, body: payment }];
    const waiting = new AbortController();
    const started = Date.now();
    const during = slow.payments.retrieve('pay_1', { signal: waiting.signal }).catch((e: unknown) => e);
    setTimeout(() => waiting.abort(), 100);
    expect(await during).toBeInstanceOf(RequestAbortedError);
    // Well under the 5 s backoff.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(seen).toHaveLength(2);

    await expect(client().payments.retrieve('pay_1', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(seen).toHaveLength(2);
  });

  it('puts lastResponse on results, out of JSON and keys', async () => {
    script = [{ status: 201, body: payment, headers: { 'x-request-id': 'req_abc' } }];
    const created = await client().payments.create({ amount: 1, customer: { name: 'A' } }, { idempotencyKey: 'pedido-9' });
    expect(created.lastResponse).toMatchObject({ requestId: 'req_abc', statusCode: 201, idempotencyKey: 'pedido-9' });
    expect(created.lastResponse.headers.get('content-type')).toBe('application/json');
    expect(JSON.stringify(created)).toBe(JSON.stringify(payment));
    expect(Object.keys(created)).toEqual(Object.keys(payment));

    script = [{ status: 200, body: { object: 'list', data: [payment], has_more: false } }];
    const page = await client().payments.list({ limit: 1 });
    expect(page.lastResponse).toMatchObject({ requestId: 'req_2', statusCode: 200, idempotencyKey: null });
    expect(Object.keys(page)).toEqual(['object', 'data', 'has_more']);
  });

  it('iterates every page of a list() with for await, keeping filters and options', async () => {
    script = [
      { status: 200, body: { object: 'list', data: [{ id: 'pay_3' }, { id: 'pay_2' }], has_more: true } },
      { status: 200, body: { object: 'list', data: [{ id: 'pay_1' }], has_more: false } },
    ];
    const ids: string[] = [];
    for await (const p of client().payments.list({ limit: 2, method: 'pix' }, { apiKey: 'svc_test_pages' })) ids.push(p.id);
    expect(ids).toEqual(['pay_3', 'pay_2', 'pay_1']);
    expect(seen.map((s) => s.url)).toEqual(['/v1/payments?limit=2&method=pix', '/v1/payments?limit=2&method=pix&starting_after=pay_2']);
    expect(seen.map((s) => s.headers['authorization'])).toEqual(['Bearer svc_test_pages', 'Bearer svc_test_pages']);

    script = [
      { status: 200, body: { object: 'list', data: [{ id: 'pay_3' }, { id: 'pay_2' }], has_more: true } },
      { status: 200, body: { object: 'list', data: [{ id: 'pay_1' }], has_more: true } },
    ];
    expect((await client().payments.list({ limit: 2 }).toArray({ max: 3 })).map((p) => p.id)).toEqual(['pay_3', 'pay_2', 'pay_1']);
    expect(seen).toHaveLength(4);
  });

  it('sends nothing for a listAll that is never iterated', async () => {
    client().payments.listAll();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
  });
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '../provider-adapter';
import { ProviderHttp, type HttpExchange } from './provider-http';
import type { RequestPurpose } from './transport-errors';

jest.setTimeout(30_000);

// Real sockets against a local server: what undici reports is what the table is fed.
let server: Server;
let baseUrl: string;
let behaviour: (req: IncomingMessage, res: ServerResponse) => void;
const seenRequestIds: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenRequestIds.push(String(req.headers['x-request-id']));
    req.resume();
    req.on('end', () => behaviour(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const card: RequestPurpose = { operation: 'create', method: 'card' };
const pix: RequestPurpose = { operation: 'create', method: 'pix' };

// A timeout a real answer from the local server never misses, even on a loaded machine.
function client(observe?: (exchange: HttpExchange) => void, url = baseUrl): ProviderHttp {
  return new ProviderHttp({ provider: 'test', baseUrl: url, timeoutMs: 2_000, ...(observe ? { observe } : {}) });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('ProviderHttp', () => {
  it('answers 2xx and 4xx with the parsed body and sends a request id', async () => {
    behaviour = (_req, res) => res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"no"}');
    const http = client();
    const answer = await http.send({ method: 'POST', path: '/x', purpose: card, body: '{}' });
    expect(answer).toMatchObject({ status: 422, body: { error: 'no' } });
    expect(seenRequestIds.at(-1)).toBe(answer.requestId);
    expect(answer.requestId).toMatch(/^req_/);
    await http.close();
  });

  it('a refused connection is not_created for a card create (nothing was sent)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const http = client(undefined, `http://127.0.0.1:${port}`);
    expect(await failure(http.send({ method: 'POST', path: '/x', purpose: card, body: '{}' }))).toMatchObject({ kind: 'not_created', normalizedCode: 'provider_unavailable' });
    await http.close();
  });

  it('a reset after the request arrived is ambiguous for a card, not_created for a Pix', async () => {
    behaviour = (req) => req.socket.destroy();
    const http = client();
    expect(await failure(http.send({ method: 'POST', path: '/x', purpose: card, body: '{}' }))).toMatchObject({ kind: 'ambiguous', normalizedCode: 'provider_timeout' });
    expect(await failure(http.send({ method: 'POST', path: '/x', purpose: pix, body: '{}' }))).toMatchObject({ kind: 'not_created', normalizedCode: 'provider_unavailable' });
    await http.close();
  });

  it('no answer in time is a timeout; 429 and 5xx are classified, not answered', async () => {
    const http = client();
    behaviour = () => undefined;
    expect(await failure(http.send({ method: 'POST', path: '/x', purpose: pix, body: '{}' }))).toMatchObject({ kind: 'ambiguous', normalizedCode: 'provider_timeout' });
    behaviour = (_req, res) => res.writeHead(429).end();
    expect(await failure(http.send({ method: 'GET', path: '/x', purpose: { operation: 'read' } }))).toMatchObject({ kind: 'not_created', normalizedCode: 'provider_rate_limited', httpStatus: 429 });
    behaviour = (_req, res) => res.writeHead(500).end('<html>');
    expect(await failure(http.send({ method: 'POST', path: '/x', purpose: card, body: '{}' }))).toMatchObject({ kind: 'ambiguous', normalizedCode: 'provider_timeout', httpStatus: 500 });
    await http.close();
  });

  it('reports every exchange without its path, headers or body', async () => {
    const seen: HttpExchange[] = [];
    behaviour = (_req, res) => res.writeHead(200).end('not json');
    const http = client((exchange) => seen.push(exchange));
    const answer = await http.send({ method: 'PUT', path: '/v2/webhook/secret-pix-key?hmac=s3cr3t', purpose: { operation: 'write' }, headers: { authorization: 'Bearer s3cr3t' }, body: 's3cr3t' });
    expect(answer.body).toBe('not json');
    expect(seen).toEqual([{ provider: 'test', operation: 'write', httpMethod: 'PUT', requestId: answer.requestId, status: 200, seconds: expect.any(Number) }]);
    expect(JSON.stringify(seen)).not.toMatch(/s3cr3t|secret-pix-key/);
    await http.close();
  });
});

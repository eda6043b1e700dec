import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { InvalidRequestError, PermissionError } from '../errors';

// A real HTTP server plays the API; the test reads the requests the resource sends.

let server: Server;
let orquestra: Orquestra;
let seen: string[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  orquestra = new Orquestra({ apiKey: 'svc_test_sdk', baseUrl, retry: { maxRetries: 0 } });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answer = { status: 200, body: { object: 'analytics_overview', start: '2026-11-01', end: '2026-11-30' } };
});

describe('analytics.overview', () => {
  it('sends no query by default, days alone, or start and end', async () => {
    const overview = await orquestra.analytics.overview();
    expect(overview).toMatchObject({ object: 'analytics_overview', start: '2026-11-01' });
    await orquestra.analytics.overview({ days: 7 });
    await orquestra.analytics.overview({ start: '2026-11-01', end: '2026-11-30' });
    expect(seen).toEqual([
      'GET /v1/analytics/overview',
      'GET /v1/analytics/overview?days=7',
      'GET /v1/analytics/overview?start=2026-11-01&end=2026-11-30',
    ]);
  });

  it('raises the API errors as typed errors with param', async () => {
    answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid', param: 'days', message: 'O parâmetro days deve ser maior ou igual a 1.' } } };
    await expect(orquestra.analytics.overview({ days: 0 })).rejects.toMatchObject({ constructor: InvalidRequestError, param: 'days', code: 'parameter_invalid' });
    answer = { status: 403, body: { error: { type: 'invalid_request_error', code: 'restricted_key', param: null, message: 'Chave restrita.' } } };
    await expect(orquestra.analytics.overview()).rejects.toBeInstanceOf(PermissionError);
  });
});

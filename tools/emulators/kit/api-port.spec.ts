import express, { Router } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emulatorApiApp, finishApi, type ProviderAnswers } from './api-port';
import { createEmulatorLogger } from './logger';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

class AcmeError extends Error {
  constructor(
    readonly status: number,
    readonly body: { erro: string },
  ) {
    super(body.erro);
  }
}

const answers: ProviderAnswers = {
  known: (err) => (err instanceof AcmeError ? err : undefined),
  badBody: () => ({ status: 400, body: { erro: 'json_invalido' } }),
  notFound: (req) => new AcmeError(404, { erro: `sem rota ${req.method}` }),
  onUnexpected: (res) => res.setHeader('x-unexpected', 'yes'),
  internal: () => ({ status: 500, body: { erro: 'interno' } }),
  unavailable: () => ({ status: 503, body: { erro: 'indisponivel' } }),
  rateLimited: () => ({ status: 429, body: { erro: 'limite' } }),
};

let server: Server;
let base: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const logger = createEmulatorLogger('api-port-spec', 'debug');
  // The log lines as written, to check what a request line says (and does not).
  logger.debug = ((fields: Record<string, unknown>) => void lines.push(fields)) as typeof logger.debug;
  logger.error = (() => undefined) as typeof logger.error;
  const app = emulatorApiApp(logger, (res) => ({ account: res.locals['account'] }));
  app.use(express.json());
  const routes = Router();
  routes.post('/charges', (_req, res) => {
    res.locals['account'] = 'acc_1';
    throw new AcmeError(409, { erro: 'duplicada' });
  });
  routes.get('/boom', () => {
    throw new Error('bug');
  });
  app.use('/v1', routes);
  finishApi(app, answers, logger);
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(method: string, path: string, body?: string) {
  const res = await fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) });
  return { status: res.status, body: (await res.json()) as unknown, headers: res.headers };
}

describe('emulator API frame', () => {
  it("answers the provider's own errors, bad bodies, unknown paths and failures in the provider's shapes", async () => {
    expect(await call('POST', '/v1/charges', '{}')).toMatchObject({ status: 409, body: { erro: 'duplicada' } });
    expect(await call('POST', '/v1/charges', '{"a":')).toMatchObject({ status: 400, body: { erro: 'json_invalido' } });
    expect(await call('DELETE', '/v1/nothing')).toMatchObject({ status: 404, body: { erro: 'sem rota DELETE' } });
    const failed = await call('GET', '/v1/boom');
    expect(failed).toMatchObject({ status: 500, body: { erro: 'interno' } });
    expect(failed.headers.get('x-unexpected')).toBe('yes');
    expect(failed.headers.get('x-powered-by')).toBeNull();
  });

  it('logs method, full path without the query, status and caller, and nothing else of the request', async () => {
    lines.length = 0;
    await call('POST', '/v1/charges?secret=s3cret', '{"card":"4111111111111111"}');
    // Logged when the answer is finished, which the caller may see first: polled for.
    await eventuallyExpect(() => expect(lines).toEqual([{ method: 'POST', path: '/v1/charges', status: 409, account: 'acc_1', ms: expect.any(Number) }]));
  });
});

import { Writable } from 'node:stream';
import { status } from '@grpc/grpc-js';
import type { providers } from '@orquestra/contracts';
import { RpcError } from '@orquestra/platform';
import pino from 'pino';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { startApp, type RunningApp } from '../testing/http-harness';
import { flattenHeaders, flattenQuery } from './provider-webhooks.routes';

describe('provider webhooks', () => {
  let app: RunningApp;
  let clients: FakeClients;
  let logged = '';
  beforeEach(async () => {
    logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    clients = fakeClients();
    app = await startApp({ clients, logger: pino({ level: 'trace' }, sink) });
  });
  afterEach(() => app.close());

  it('hands the raw body, query, headers and sub-path to the providers service and answers as it says', async () => {
    const handleWebhook = jest.fn(async (_request: providers.HandleWebhookRequest) => ({ http_status: 200, body: '{"received":true}' }));
    clients.providers.handleWebhook = handleWebhook;
    const raw = '{ "pix": [ { "txid": "abc", "valor": "19.90" } ] }';
    const answer = await app.request('POST', '/webhooks/providers/pa_01j/pix?hmac=s3cr3t-value&ignorar=', {
      headers: { 'content-type': 'application/json', 'X-Custom-Sig': 'sig' },
      body: raw,
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ received: true });
    const [request] = handleWebhook.mock.calls[0] as [providers.HandleWebhookRequest];
    expect(request.account_id).toBe('pa_01j');
    expect(request.sub_path).toBe('/pix');
    expect(request.query).toEqual({ hmac: 's3cr3t-value', ignorar: '' });
    expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'x-custom-sig': 'sig' });
    // Byte for byte: signatures are computed over the exact body.
    expect(Buffer.from(request.body).toString('utf8')).toBe(raw);
  });

  it('accepts the Efí form where /pix lands in the query, with any content type', async () => {
    const handleWebhook = jest.fn(async (_request: providers.HandleWebhookRequest) => ({ http_status: 204, body: '' }));
    clients.providers.handleWebhook = handleWebhook;
    const answer = await app.request('POST', '/webhooks/providers/pa_01j?hmac=s3cr3t-value&ignorar=/pix', {
      headers: { 'content-type': 'text/plain' },
      body: 'not json at all',
    });
    expect(answer.status).toBe(204);
    const [request] = handleWebhook.mock.calls[0] as [providers.HandleWebhookRequest];
    expect(request.sub_path).toBe('');
    expect(request.query).toEqual({ hmac: 's3cr3t-value', ignorar: '/pix' });
    expect(Buffer.from(request.body).toString('utf8')).toBe('not json at all');
  });

  it('passes through the providers service refusals (bad signature → 401) so providers do not retry forever', async () => {
    clients.providers.handleWebhook = async () => {
      throw new RpcError('webhook_rejected', status.FAILED_PRECONDITION, {});
    };
    const answer = await app.request('POST', '/webhooks/providers/pa_01j?hmac=wrong', { body: '{}' });
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe('webhook_rejected');
  });

  it('answers 503 when the providers service fails, so the provider retries', async () => {
    clients.providers.handleWebhook = async () => {
      throw new RpcError('internal', status.INTERNAL, {});
    };
    const answer = await app.request('POST', '/webhooks/providers/pa_01j?hmac=s3cr3t-value', { body: '{"pix":[]}' });
    expect(answer.status).toBe(503);
    expect(answer.json.error.code).toBe('service_unavailable');
  });

  it('never logs the query secret or the body', async () => {
    clients.providers.handleWebhook = async () => {
      throw new RpcError('service_unavailable', status.UNAVAILABLE, {});
    };
    await app.request('POST', '/webhooks/providers/pa_01j/pix?hmac=s3cr3t-value', { body: '{"payer":"cpf-98765432100"}' });
    clients.providers.handleWebhook = async () => ({ http_status: 200, body: '' });
    await app.request('POST', '/webhooks/providers/pa_01j/pix?hmac=s3cr3t-value', { body: '{"payer":"cpf-98765432100"}' });
    expect(logged).toContain('/webhooks/providers/pa_01j/pix');
    expect(logged).not.toContain('s3cr3t-value');
    expect(logged).not.toContain('98765432100');
  });

  it('flattens repeated query keys and multi-valued headers to strings', () => {
    expect(flattenQuery({ a: ['1', '2'], b: 'x', c: undefined })).toEqual({ a: '1,2', b: 'x' });
    expect(flattenHeaders({ 'X-A': 'y', 'set-cookie': ['a=1', 'b=2'] })).toEqual({ 'x-a': 'y', 'set-cookie': 'a=1, b=2' });
  });
});

/**
 * The emulator's own behaviour over plain HTTP: auth, validation answers, idempotency, account
 * isolation, webhooks (signature, retries, dashboard URL, IPN) and the control routes. The
 * adapter-level flows are in services/providers/src/adapters/mercadopago/mercadopago.contract.spec.ts.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasError, isStaticPix, parsePix } from 'pix-utils';
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from './mercadopago-emulator';

jest.setTimeout(30_000);

const A = { access_token: 'TEST-1111111111111111-031014-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-1000000001', webhook_secret: 'secret_a' };
const B = { access_token: 'TEST-2222222222222222-031014-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-1000000002', webhook_secret: 'secret_b' };

let clockOffsetMs = 0;
let emulator: MercadoPagoEmulator;
let api: string;
let control: string;
let receiver: Server;
let hookBase: string;
const hooks: { url: URL; headers: Record<string, string>; body: string }[] = [];
let failuresLeft = 0;
let keyCounter = 0;

type Json = Record<string, unknown>;

async function call(method: string, path: string, options: { token?: string; body?: unknown; key?: string | null } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  if (options.key !== null && method === 'POST') headers['x-idempotency-key'] = options.key ?? `key-${(keyCounter += 1)}`;
  const response = await fetch(`${api}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

async function controlCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${control}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

const pix = (overrides: Json = {}): Json => ({
  transaction_amount: 10.5,
  payment_method_id: 'pix',
  payer: { email: 'comprador@example.com' },
  description: 'Pedido 1',
  ...overrides,
});

const causeCode = (body: Json) => (body['cause'] as { code: number }[])[0]?.code;

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [A, B], webhooks: { retries: 2, baseDelayMs: 10, timeoutMs: 1_000 }, now: () => new Date(Date.now() + clockOffsetMs) });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hooks.push({ url: new URL(req.url ?? '/', 'http://receiver'), headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });
      const fail = failuresLeft > 0;
      if (fail) failuresLeft -= 1;
      res.writeHead(fail ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterEach(async () => {
  emulator.state.faults.clear();
  clockOffsetMs = 0;
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('auth', () => {
  it('answers 401 without a token (cause 5) and for an unknown token', async () => {
    const missing = await call('GET', '/users/me');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status: 401, error: 'unauthorized', message: expect.any(String) });
    expect(causeCode(missing.body)).toBe(5);
    expect((await call('GET', '/users/me', { token: 'TEST-unknown' })).status).toBe(401);
    expect((await call('GET', '/users/me', { token: A.access_token })).body).toMatchObject({ id: 1000000001, site_id: 'MLB' });
  });
});

describe('POST /v1/payments (Pix)', () => {
  it('creates a pending payment with a valid BR Code, a PNG and the documented fields', async () => {
    const { status, body } = await call('POST', '/v1/payments', { token: A.access_token, body: pix({ transaction_amount: 1990.07, metadata: { order: '1' }, external_reference: 'pay_1' }) });
    expect(status).toBe(201);
    expect(body).toMatchObject({ status: 'pending', status_detail: 'pending_waiting_transfer', transaction_amount: 1990.07, payment_method_id: 'pix', metadata: { order: '1' }, external_reference: 'pay_1' });
    expect(body['date_of_expiration']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-03:00$/);
    const data = (body['point_of_interaction'] as { transaction_data: { qr_code: string; qr_code_base64: string; ticket_url: string } }).transaction_data;
    const parsed = parsePix(data.qr_code);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(isStaticPix(parsed) && parsed.transactionAmount).toBe(1990.07);
    expect(Buffer.from(data.qr_code_base64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((await fetch(data.ticket_url)).status).toBe(200);
  });

  it('requires X-Idempotency-Key and answers the first payment for a repeated key, per account', async () => {
    const missing = await call('POST', '/v1/payments', { token: A.access_token, body: pix(), key: null });
    expect(missing.status).toBe(400);
    expect(causeCode(missing.body)).toBe(4292);
    const first = await call('POST', '/v1/payments', { token: A.access_token, body: pix(), key: 'same-key' });
    const again = await call('POST', '/v1/payments', { token: A.access_token, body: pix(), key: 'same-key' });
    const otherAccount = await call('POST', '/v1/payments', { token: B.access_token, body: pix(), key: 'same-key' });
    expect(again.body['id']).toBe(first.body['id']);
    expect(otherAccount.body['id']).not.toBe(first.body['id']);
  });

  it('answers the documented validation errors', async () => {
    for (const amount of [0, -1, 10.555, '10.00']) {
      const bad = await call('POST', '/v1/payments', { token: A.access_token, body: pix({ transaction_amount: amount }) });
      expect([bad.status, causeCode(bad.body)]).toEqual([400, 4037]);
    }
    const noEmail = await call('POST', '/v1/payments', { token: A.access_token, body: pix({ payer: {} }) });
    expect([noEmail.status, causeCode(noEmail.body)]).toEqual([400, 4050]);
    const badUrl = await call('POST', '/v1/payments', { token: A.access_token, body: pix({ notification_url: 'not a url' }) });
    expect([badUrl.status, causeCode(badUrl.body)]).toEqual([400, 4020]);
    const soon = await call('POST', '/v1/payments', { token: A.access_token, body: pix({ date_of_expiration: new Date(Date.now() + 60_000).toISOString() }) });
    expect(soon.status).toBe(400);
  });
});

describe('GET and PUT /v1/payments/:id', () => {
  it('hides other accounts’ payments, cancels once, and expires past date_of_expiration', async () => {
    const created = await call('POST', '/v1/payments', { token: A.access_token, body: pix() });
    const id = String(created.body['id']);
    const foreign = await call('GET', `/v1/payments/${id}`, { token: B.access_token });
    expect([foreign.status, causeCode(foreign.body)]).toEqual([404, 2000]);
    expect((await call('PUT', `/v1/payments/${id}`, { token: A.access_token, body: { status: 'cancelled' } })).body).toMatchObject({ status: 'cancelled', status_detail: 'by_collector' });
    const twice = await call('PUT', `/v1/payments/${id}`, { token: A.access_token, body: { status: 'cancelled' } });
    expect([twice.status, causeCode(twice.body)]).toEqual([400, 2018]);

    const other = await call('POST', '/v1/payments', { token: A.access_token, body: pix() });
    clockOffsetMs = 25 * 60 * 60 * 1000;
    expect((await call('GET', `/v1/payments/${String(other.body['id'])}`, { token: A.access_token })).body).toMatchObject({ status: 'cancelled', status_detail: 'expired' });
  });
});

describe('webhooks', () => {
  it('signs notifications to notification_url with the account secret and retries failures', async () => {
    const url = `${hookBase}/a?hmac=x&source_news=webhooks`;
    const created = await call('POST', '/v1/payments', { token: A.access_token, body: pix({ notification_url: url }) });
    const id = String(created.body['id']);
    await emulator.webhooksIdle();
    hooks.length = 0;
    failuresLeft = 1;
    expect((await controlCall('POST', `/__control/charges/${id}/pay`)).status).toBe(200);
    await emulator.webhooksIdle();
    expect(hooks).toHaveLength(2);
    const hook = hooks[1]!;
    expect(Object.fromEntries(hook.url.searchParams)).toEqual({ hmac: 'x', source_news: 'webhooks', 'data.id': id, type: 'payment' });
    expect(JSON.parse(hook.body)).toMatchObject({ type: 'payment', action: 'payment.updated', live_mode: false, data: { id } });
    const [, ts, v1] = /^ts=(\d+),v1=([0-9a-f]{64})$/.exec(hook.headers['x-signature'] ?? '') ?? [];
    const expected = createHmac('sha256', A.webhook_secret).update(`id:${id};request-id:${hook.headers['x-request-id']};ts:${ts};`).digest('hex');
    expect(v1).toBe(expected);
    const paid = await call('GET', `/v1/payments/${id}`, { token: A.access_token });
    expect(paid.body).toMatchObject({ status: 'approved', status_detail: 'accredited', fee_details: [{ type: 'mercadopago_fee', amount: 0.1, fee_payer: 'collector' }] });
  });

  it('uses the dashboard URL when the payment has none, and sends IPN too without source_news', async () => {
    expect((await controlCall('POST', '/__control/webhook', { account: B.access_token, url: `${hookBase}/dash` })).status).toBe(200);
    hooks.length = 0;
    const created = await call('POST', '/v1/payments', { token: B.access_token, body: pix() });
    await emulator.webhooksIdle();
    const id = String(created.body['id']);
    expect(hooks.map((h) => h.url.pathname)).toEqual(['/hooks/dash', '/hooks/dash']);
    expect(hooks.some((h) => h.url.searchParams.get('topic') === 'payment' && h.url.searchParams.get('id') === id)).toBe(true);
  });
});

describe('control routes', () => {
  it('registers accounts idempotently and answers health', async () => {
    const account = { access_token: 'TEST-3333333333333333-031014-cccccccccccccccccccccccccccccccc-1000000003', webhook_secret: 'secret_c' };
    expect((await controlCall('POST', '/__control/accounts', account)).status).toBe(201);
    expect((await controlCall('POST', '/__control/accounts', account)).status).toBe(200);
    expect((await controlCall('POST', '/__control/accounts', { token: 'x' })).status).toBe(400);
    expect((await call('GET', '/users/me', { token: account.access_token })).status).toBe(200);
    expect((await controlCall('GET', '/__control/health')).status).toBe(200);
  });

  it('pays only open payments: 404 unknown, 409 not payable', async () => {
    expect((await controlCall('POST', '/__control/charges/424242/pay')).status).toBe(404);
    const created = await call('POST', '/v1/payments', { token: A.access_token, body: pix() });
    await call('PUT', `/v1/payments/${String(created.body['id'])}`, { token: A.access_token, body: { status: 'cancelled' } });
    expect((await controlCall('POST', `/__control/charges/${String(created.body['id'])}/pay`)).status).toBe(409);
  });

  it('injects faults per account, counts them, and resets stats but not accounts', async () => {
    await controlCall('POST', '/__control/reset');
    expect((await controlCall('POST', '/__control/faults', { account: A.access_token, error_rate: 1 })).status).toBe(200);
    const failed = await call('POST', '/v1/payments', { token: A.access_token, body: pix() });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ status: 500, error: 'internal_error' });
    expect((await call('POST', '/v1/payments', { token: B.access_token, body: pix() })).status).toBe(201);
    await controlCall('POST', '/__control/faults', { rate_limit_rate: 1 });
    expect((await call('GET', '/users/me', { token: B.access_token })).status).toBe(429);
    expect((await controlCall('DELETE', '/__control/faults')).status).toBe(204);
    const stats = (await controlCall('GET', '/__control/stats')).body;
    expect(stats).toMatchObject({ charges_created: 1, by_account: { '1000000002': 1 }, faults_injected: 2 });
    expect(stats).toHaveProperty('webhooks_sent');
    expect(stats).toHaveProperty('webhooks_failed');
    await controlCall('POST', '/__control/reset');
    expect((await controlCall('GET', '/__control/stats')).body).toMatchObject({ charges_created: 0, by_account: {}, faults_injected: 0 });
    expect((await call('GET', '/users/me', { token: A.access_token })).status).toBe(200);
  });
});

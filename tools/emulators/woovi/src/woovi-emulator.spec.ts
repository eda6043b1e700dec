/**
 * The Woovi emulator over real HTTP: API shapes, isolation, idempotency, signed webhooks with
 * retries, expiry, control routes and fault injection.
 */
import { verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { Agent, request } from 'undici';
import { loadEmulatorConfig } from './emulator-config';
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';
import { accountIdFor } from './woovi-ids';

jest.setTimeout(20_000);

const APP_A = 'Q2xpZW50X0lkX2E6Q2xpZW50X1NlY3JldF9h';
const APP_B = 'Q2xpZW50X0lkX2I6Q2xpZW50X1NlY3JldF9i';

let clockOffsetMs = 0;
let emulator: WooviEmulator;
let api: string;
let control: string;
let receiver: Server;
let receiverUrl: string;
let receiverFailuresLeft = 0;
const received: { path: string; headers: Record<string, string>; body: Buffer }[] = [];
const agent = new Agent({ headersTimeout: 1_000, bodyTimeout: 1_000 });

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, appId?: string) {
  const response = await request(url, {
    method,
    headers: { ...(appId ? { authorization: appId } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    dispatcher: agent,
  });
  const buffer = Buffer.from(await response.body.arrayBuffer());
  const type = String(response.headers['content-type'] ?? '');
  return { status: response.statusCode, type, buffer, json: (type.includes('json') ? JSON.parse(buffer.toString()) : undefined) as Record<string, any> };
}

const createCharge = (body: Record<string, unknown>, appId = APP_A, query = '') => call('POST', `${api}/api/v1/charge${query}`, body, appId);
const stats = async () => (await call('GET', `${control}/__control/stats`)).json;

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_A], webhooks: { retries: 3, baseDelayMs: 10 }, now: () => new Date(Date.now() + clockOffsetMs) });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
      const fail = receiverFailuresLeft > 0;
      if (fail) receiverFailuresLeft -= 1;
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/woovi?hmac=s3cr3t`;
});

afterEach(async () => {
  emulator.state.faults.clear();
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator?.stop();
  await agent.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('accounts and auth', () => {
  it('registers accounts idempotently and refuses unknown AppIDs with Woovi’s error shape', async () => {
    expect((await call('GET', `${control}/__control/health`)).status).toBe(200);
    expect((await call('POST', `${control}/__control/accounts`, { app_id: APP_B })).status).toBe(201);
    expect((await call('POST', `${control}/__control/accounts`, { app_id: APP_B })).status).toBe(200);
    const unknown = await call('GET', `${api}/api/v1/charge`, undefined, 'not-an-app-id');
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({ error: expect.any(String) });
    expect((await call('GET', `${api}/api/v1/charge`)).status).toBe(401);
    expect((await call('GET', `${api}/api/v1/charge`, undefined, `Bearer ${APP_A}`)).status).toBe(401);
    expect((await call('GET', `${api}/api/v1/charge`, undefined, APP_A)).status).toBe(200);
  });
});

describe('charges', () => {
  it('creates an ACTIVE charge in cents with a valid dynamic BR Code, QR image and fee', async () => {
    const created = await createCharge({ correlationID: 'order-1', value: 12_345, comment: 'Pedido 1', expiresIn: 3600, additionalInfo: [{ key: 'order', value: '1' }] });
    expect(created.status).toBe(200);
    const { charge } = created.json;
    expect(created.json).toMatchObject({ correlationID: 'order-1', brCode: charge.brCode });
    expect(charge).toMatchObject({ status: 'ACTIVE', value: 12_345, correlationID: 'order-1', expiresIn: 3600, fee: 99, additionalInfo: [{ key: 'order', value: '1' }] });
    expect(Date.parse(charge.expiresDate) - Date.parse(charge.createdAt)).toBe(3_600_000);
    const parsed = parsePix(charge.brCode);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(hasError(parsePix(`${String(charge.brCode).slice(0, -4)}0000`))).toBe(true);
    const image = await call('GET', charge.qrCodeImage);
    expect(image.status).toBe(200);
    expect(image.buffer.subarray(1, 4).toString()).toBe('PNG');
    expect((await call('GET', String(charge.paymentLinkUrl))).status).toBe(200);
  });

  it('refuses a repeated correlationID, unless return_existing=true answers the existing charge', async () => {
    emulator.state.reset();
    const first = await createCharge({ correlationID: 'order-2', value: 500 });
    const repeated = await createCharge({ correlationID: 'order-2', value: 500 });
    expect(repeated.status).toBe(400);
    expect(repeated.json).toEqual({ error: expect.stringMatching(/correlationID/) });
    const existing = await createCharge({ correlationID: 'order-2', value: 500 }, APP_A, '?return_existing=true');
    expect(existing.status).toBe(200);
    expect(existing.json.charge.transactionID).toBe(first.json.charge.transactionID);
    expect(await stats()).toMatchObject({ charges_created: 1, by_account: { [accountIdFor(APP_A)]: 1 } });
  });

  it('validates the body with 400 {error}', async () => {
    for (const body of [{ correlationID: 'x', value: 1.5 }, { correlationID: 'x', value: 0 }, { value: 100 }, { correlationID: 'x', value: 100, customer: { name: 'A', taxID: '123' } }]) {
      const answer = await createCharge(body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: expect.any(String) });
    }
  });

  it('reads by correlationID or globalID, and hides charges from other accounts', async () => {
    const { charge } = (await createCharge({ correlationID: 'order-3', value: 700 })).json;
    expect((await call('GET', `${api}/api/v1/charge/order-3`, undefined, APP_A)).json.charge.globalID).toBe(charge.globalID);
    expect((await call('GET', `${api}/api/v1/charge/${encodeURIComponent(charge.globalID)}`, undefined, APP_A)).json.charge.correlationID).toBe('order-3');
    const other = await call('GET', `${api}/api/v1/charge/order-3`, undefined, APP_B);
    expect(other.status).toBe(400);
    expect(other.json.error).toMatch(/não encontrada/);
    expect((await createCharge({ correlationID: 'order-3', value: 700 }, APP_B)).status).toBe(200);
  });

  it('deletes an active charge; a paid one cannot be deleted', async () => {
    await createCharge({ correlationID: 'order-4', value: 100 });
    expect((await call('DELETE', `${api}/api/v1/charge/order-4`, undefined, APP_A)).json).toEqual({ status: 'OK', id: 'order-4' });
    expect((await call('GET', `${api}/api/v1/charge/order-4`, undefined, APP_A)).status).toBe(400);
    await createCharge({ correlationID: 'order-5', value: 100 });
    expect((await call('POST', `${control}/__control/charges/order-5/pay`, {})).status).toBe(200);
    expect((await call('DELETE', `${api}/api/v1/charge/order-5`, undefined, APP_A)).status).toBe(400);
  });

  it('expires a charge past expiresIn and sends CHARGE_EXPIRED', async () => {
    await call('POST', `${api}/api/v1/webhook`, { webhook: { name: 'exp', event: 'OPENPIX:CHARGE_EXPIRED', url: receiverUrl, isActive: true } }, APP_A);
    await createCharge({ correlationID: 'order-6', value: 100, expiresIn: 60 });
    clockOffsetMs = 61_000;
    try {
      expect((await call('GET', `${api}/api/v1/charge/order-6`, undefined, APP_A)).json.charge.status).toBe('EXPIRED');
    } finally {
      clockOffsetMs = 0;
    }
    const hook = await waitFor(() => received.find((r) => r.body.toString().includes('"order-6"')));
    expect(JSON.parse(hook.body.toString())).toMatchObject({ event: 'OPENPIX:CHARGE_EXPIRED', charge: { status: 'EXPIRED' } });
    expect((await call('POST', `${control}/__control/charges/order-6/pay`, {})).status).toBe(409);
  });
});

describe('payments and webhooks', () => {
  it('posts a test notification on registration and an RSA-signed CHARGE_COMPLETED on payment', async () => {
    received.length = 0;
    const registered = await call('POST', `${api}/api/v1/webhook`, { webhook: { name: 'paid', event: 'OPENPIX:CHARGE_COMPLETED', url: receiverUrl, authorization: 'tok', isActive: true } }, APP_A);
    expect(registered.json.webhook).toMatchObject({ event: 'OPENPIX:CHARGE_COMPLETED', url: receiverUrl, isActive: true, id: expect.any(String) });
    expect((await call('GET', `${api}/api/v1/webhook?url=${encodeURIComponent(receiverUrl)}`, undefined, APP_A)).json.webhooks).toHaveLength(2);
    const test = await waitFor(() => received[0]);
    expect(JSON.parse(test.body.toString())).toEqual({ data_criacao: expect.any(String), event: 'OPENPIX:CHARGE_COMPLETED' });

    await createCharge({ correlationID: 'order-7', value: 2_500 });
    const paid = await call('POST', `${control}/__control/charges/order-7/pay`, {});
    expect(paid.json).toMatchObject({ correlationID: 'order-7', status: 'COMPLETED', endToEndId: expect.stringMatching(/^E\d{20}[A-Za-z0-9]{11}$/) });
    const hook = await waitFor(() => received.find((r) => r.body.toString().includes('"order-7"')));
    expect(hook.path).toBe('/hooks/woovi?hmac=s3cr3t');
    expect(hook.headers['authorization']).toBe('tok');
    const publicKey = (await call('GET', `${control}/__control/public-key`)).buffer.toString();
    const published = (await call('GET', `${api}/api/v1/webhook/public-keys`)).json.public_keys[0].key;
    expect(published).toBe(publicKey);
    expect(verify('sha256', hook.body, publicKey, Buffer.from(hook.headers['x-webhook-signature']!, 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.concat([hook.body, Buffer.from(' ')]), publicKey, Buffer.from(hook.headers['x-webhook-signature']!, 'base64'))).toBe(false);
    const body = JSON.parse(hook.body.toString());
    expect(body).toMatchObject({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { correlationID: 'order-7', status: 'COMPLETED', value: 2_500 }, pix: { value: 2_500, endToEndId: paid.json.endToEndId } });
    expect((await call('GET', `${api}/api/v1/charge/order-7`, undefined, APP_A)).json.charge).toMatchObject({ status: 'COMPLETED', paidAt: expect.any(String) });
    expect((await call('POST', `${control}/__control/charges/order-7/pay`, {})).status).toBe(409);
    expect((await call('POST', `${control}/__control/charges/nope/pay`, {})).status).toBe(404);
  });

  it('retries a refused webhook with backoff', async () => {
    await createCharge({ correlationID: 'order-8', value: 100 });
    receiverFailuresLeft = 2;
    await call('POST', `${control}/__control/charges/order-8/pay`, { account: APP_A });
    await emulator.webhooksIdle();
    const delivery = emulator.state.listDeliveries().find((d) => d.correlationID === 'order-8' && d.event === 'OPENPIX:CHARGE_COMPLETED');
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(delivery?.outcome).toBe('delivered');
  });
});

describe('faults and reset', () => {
  const fault = (body: Record<string, unknown>) => call('POST', `${control}/__control/faults`, body);

  it('answers 500 and 429 in Woovi’s shape, per account', async () => {
    await fault({ account: APP_A, error_rate: 1 });
    expect(await createCharge({ correlationID: 'f-1', value: 100 })).toMatchObject({ status: 500, json: { error: 'Internal server error' } });
    expect((await createCharge({ correlationID: 'f-1', value: 100 }, APP_B)).status).toBe(200);
    await fault({ account: APP_A, rate_limit_rate: 1 });
    expect((await createCharge({ correlationID: 'f-2', value: 100 })).status).toBe(429);
    await fault({ outage: true, outage_mode: '503' });
    expect((await createCharge({ correlationID: 'f-3', value: 100 }, APP_B)).status).toBe(503);
    expect((await call('DELETE', `${control}/__control/faults`)).status).toBe(204);
    expect((await createCharge({ correlationID: 'f-4', value: 100 })).status).toBe(200);
    expect((await stats()).faults_injected).toBeGreaterThanOrEqual(3);
  });

  it('drops the connection in an outage and never answers when hanging', async () => {
    await fault({ outage: true });
    await expect(createCharge({ correlationID: 'f-5', value: 100 })).rejects.toThrow();
    await call('DELETE', `${control}/__control/faults`);
    await fault({ account: APP_A, hang: true });
    await expect(createCharge({ correlationID: 'f-6', value: 100 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('reset clears charges and stats but keeps accounts and webhooks', async () => {
    expect((await call('POST', `${control}/__control/reset`)).status).toBe(204);
    expect(await stats()).toMatchObject({ charges_created: 0, webhooks_sent: 0, faults_injected: 0 });
    expect((await call('GET', `${api}/api/v1/charge/order-7`, undefined, APP_A)).status).toBe(400);
    expect((await call('GET', `${api}/api/v1/webhook`, undefined, APP_A)).json.webhooks.length).toBeGreaterThan(0);
  });
});

describe('environment', () => {
  it('reads ports and preloaded accounts, and refuses a bad account list', () => {
    expect(loadEmulatorConfig({})).toMatchObject({ WOOVI_EMULATOR_API_PORT: 9456, WOOVI_EMULATOR_CONTROL_PORT: 9457, WOOVI_EMULATOR_ACCOUNTS: [] });
    expect(loadEmulatorConfig({ WOOVI_EMULATOR_ACCOUNTS: '["a", {"app_id": "b"}]' }).WOOVI_EMULATOR_ACCOUNTS).toEqual(['a', 'b']);
    expect(() => loadEmulatorConfig({ WOOVI_EMULATOR_ACCOUNTS: '{"a":1}' })).toThrow(/WOOVI_EMULATOR_ACCOUNTS/);
  });
});

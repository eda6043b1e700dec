/**
 * `GET /v3/payments` by creation day (`dateCreated[ge]`, `dateCreated[le]`) with offset/limit
 * paging, and the dashboard control routes: charges made in Asaas's dashboard and status changes
 * behind the integrator's back, without webhooks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';

jest.setTimeout(30_000);

const KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmVtdWxhdG9yLWxzdA';
const OTHER = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmVtdWxhdG9yLW90aA';
let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
const events: string[] = [];

async function call(method: 'GET' | 'POST', path: string, body?: string, key = KEY) {
  const response = await request(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', access_token: key, 'user-agent': 'orquestra-spec' },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

async function controlCall(path: string, body: unknown) {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const dashboard = (body: Record<string, unknown>) => controlCall('/__control/dashboard-charges', { account: KEY, amount: 1000, ...body });

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }, { api_key: OTHER }], refundSettleMs: 20, webhooks: { retries: 0 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push((JSON.parse(body) as { event: string }).event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const events_ = ['PAYMENT_CREATED', 'PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_REFUNDED', 'PAYMENT_DELETED', 'PAYMENT_OVERDUE'];
  expect((await call('POST', '/v3/webhooks', JSON.stringify({ name: 'l', url, sendType: 'SEQUENTIALLY', enabled: true, interrupted: false, events: events_ }))).status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

beforeEach(async () => {
  await fetch(`${control}/__control/reset`, { method: 'POST' });
  events.length = 0;
});

describe('GET /v3/payments by dateCreated', () => {
  it('lists the account’s charges created on the São Paulo days asked for, newest first, page by page', async () => {
    // 2026-03-01 in São Paulo runs from 03:00Z to 03:00Z the next day.
    const before = await dashboard({ created_at: '2026-03-01T02:59:59.999Z' });
    const inside = [await dashboard({ created_at: '2026-03-01T03:00:00.000Z' }), await dashboard({ created_at: '2026-03-02T12:00:00.000Z', method: 'boleto' }), await dashboard({ created_at: '2026-03-03T02:59:59.999Z', method: 'card', status: 'paid' })];
    const after = await dashboard({ created_at: '2026-03-03T03:00:00.000Z' });
    await controlCall('/__control/dashboard-charges', { account: OTHER, amount: 1000, created_at: '2026-03-01T12:00:00.000Z' });

    const query = 'dateCreated%5Bge%5D=2026-03-01&dateCreated%5Ble%5D=2026-03-02&limit=2';
    const first = await call('GET', `/v3/payments?${query}&offset=0`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ object: 'list', hasMore: true, totalCount: 3, limit: 2, offset: 0 });
    const second = await call('GET', `/v3/payments?${query}&offset=2`);
    expect(second.json).toMatchObject({ hasMore: false, totalCount: 3, offset: 2 });
    const ids = [...first.json['data'], ...second.json['data']].map((p: { id: string }) => p.id);
    expect(ids).toEqual(inside.map((p) => p.json['id']).reverse());
    expect(ids).not.toContain(before.json['id']);
    expect(ids).not.toContain(after.json['id']);
    expect(first.json['data'][0]).toMatchObject({ billingType: 'CREDIT_CARD', status: 'CONFIRMED', dateCreated: '2026-03-02', externalReference: null, value: 10, netValue: 8.01 });
    // Unquoted brackets (as some clients send them) are the same parameters.
    expect((await call('GET', '/v3/payments?dateCreated[ge]=2026-03-02&dateCreated[le]=2026-03-02')).json['totalCount']).toBe(2);
  });

  it('refuses a date that is not YYYY-MM-DD', async () => {
    const answer = await call('GET', '/v3/payments?dateCreated%5Bge%5D=01/03/2026');
    expect(answer.status).toBe(400);
    expect(answer.json['errors'][0].code).toBe('invalid_dateCreated');
  });
});

describe('dashboard control routes', () => {
  it('makes charges with no reference of the integrator’s, at any status', async () => {
    const refunded = await dashboard({ amount: 5000, status: 'refunded' });
    expect(refunded.status).toBe(201);
    expect(refunded.json).toMatchObject({ status: 'REFUNDED', externalReference: null, billingType: 'PIX', value: 50 });
    expect(refunded.json['refunds']).toEqual([expect.objectContaining({ status: 'DONE', value: 50 })]);
    expect((await dashboard({ status: 'expired' })).json['status']).toBe('OVERDUE');
    const removed = await dashboard({ status: 'canceled' });
    expect(removed.json['deleted']).toBe(true);
    // A removed charge is not listed.
    const listed = (await call('GET', '/v3/payments')).json['data'].map((p: { id: string }) => p.id);
    expect(listed).not.toContain(removed.json['id']);
    expect((await dashboard({ status: 'failed' })).status).toBe(400);
    expect((await controlCall('/__control/dashboard-charges', { account: 'nobody', amount: 100 })).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual([]);
  });

  it('changes a status behind the integrator’s back without a webhook', async () => {
    const customer = await call('POST', '/v3/customers', JSON.stringify({ name: 'Maria Souza', cpfCnpj: '52998224725' }));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const payment = await call('POST', '/v3/payments', `{"customer":"${customer.json['id']}","billingType":"PIX","value":20.00,"dueDate":"${tomorrow}","externalReference":"pay_1:acc_1"}`);
    const id = payment.json['id'] as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual(['PAYMENT_CREATED']);
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'paid' })).json['status']).toBe('RECEIVED');
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'refunded' })).json['status']).toBe('REFUNDED');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual(['PAYMENT_CREATED']);
    expect((await call('GET', `/v3/payments/${id}`)).json).toMatchObject({ status: 'REFUNDED', externalReference: 'pay_1:acc_1' });
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'canceled' })).status).toBe(409);
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'paid', account: OTHER })).status).toBe(404);
    expect((await controlCall('/__control/charges/pay_0000000000000000/status', { status: 'paid' })).status).toBe(404);
  });
});

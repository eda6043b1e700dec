/**
 * `GET /v1/payments/search` (date range, offset/limit paging) and the dashboard control routes:
 * payments made in Mercado Pago's dashboard and status changes without notifications.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from './mercadopago-emulator';

jest.setTimeout(30_000);

const A = { access_token: 'TEST-3333333333333333-031014-cccccccccccccccccccccccccccccccc-1000000003', webhook_secret: 'secret_a' };
const B = { access_token: 'TEST-4444444444444444-031014-dddddddddddddddddddddddddddddddd-1000000004', webhook_secret: 'secret_b' };

let emulator: MercadoPagoEmulator;
let api: string;
let control: string;
let receiver: Server;
let hookUrl: string;
let hooks = 0;

type Json = Record<string, any>;

async function search(query: string, token = A.access_token) {
  const response = await fetch(`${api}/v1/payments/search?${query}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Json };
}

async function controlCall(path: string, body: unknown) {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

const dashboard = (body: Json) => controlCall('/__control/dashboard-charges', { account: A.access_token, amount: 1000, ...body });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    hooks += 1;
    req.resume();
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  emulator = createMercadoPagoEmulator({ accounts: [A, B], webhooks: { retries: 0, timeoutMs: 1_000 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(async () => {
  await fetch(`${control}/__control/reset`, { method: 'POST' });
  hooks = 0;
});

describe('GET /v1/payments/search', () => {
  it('pages the account’s payments created in [begin_date, end_date] by offset and limit', async () => {
    const before = await dashboard({ created_at: '2026-03-01T08:59:59.999-03:00' });
    const inside = [await dashboard({ created_at: '2026-03-01T09:00:00.000-03:00' }), await dashboard({ created_at: '2026-03-01T10:00:00.000-03:00', method: 'boleto' }), await dashboard({ created_at: '2026-03-01T11:00:00.000-03:00', method: 'card', status: 'paid' })];
    const after = await dashboard({ created_at: '2026-03-01T12:00:00.001-03:00' });
    await controlCall('/__control/dashboard-charges', { account: B.access_token, amount: 1000, created_at: '2026-03-01T10:30:00.000-03:00' });

    const query = 'sort=date_created&criteria=asc&range=date_created&begin_date=2026-03-01T09:00:00.000-03:00&end_date=2026-03-01T12:00:00.000-0300&limit=2';
    const first = await search(`${query}&offset=0`);
    expect(first.status).toBe(200);
    expect(first.body['paging']).toEqual({ total: 3, limit: 2, offset: 0 });
    const second = await search(`${query}&offset=2`);
    expect(second.body['paging']).toEqual({ total: 3, limit: 2, offset: 2 });
    const ids = [...first.body['results'], ...second.body['results']].map((p: Json) => p['id']);
    expect(ids).toEqual(inside.map((p) => p.body['id']));
    expect(ids).not.toContain(before.body['id']);
    expect(ids).not.toContain(after.body['id']);
    const paidCard = second.body['results'][0];
    expect(paidCard).toMatchObject({ status: 'approved', payment_type_id: 'credit_card', external_reference: null });
    expect(paidCard['fee_details'][0]).toMatchObject({ type: 'mercadopago_fee', fee_payer: 'collector' });
    // Newest first by default.
    expect((await search(query.replace('criteria=asc&', ''))).body['results'].map((p: Json) => p['id'])).toEqual([inside[2]!.body['id'], inside[1]!.body['id']]);
  });

  it('reads calendar days and relative dates, and filters by external_reference', async () => {
    const made = await fetch(`${api}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${A.access_token}`, 'content-type': 'application/json', 'x-idempotency-key': 'search-ref-1' },
      body: JSON.stringify({ transaction_amount: 12.5, payment_method_id: 'pix', payer: { email: 'a@example.com' }, external_reference: 'pay_ref_1' }),
    });
    const payment = (await made.json()) as Json;
    await dashboard({});
    expect((await search('begin_date=NOW-1DAYS&end_date=NOW&external_reference=pay_ref_1')).body['results'].map((p: Json) => p['id'])).toEqual([payment['id']]);
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    expect((await search(`begin_date=${today}&end_date=${today}`)).body['paging'].total).toBe(2);
    expect((await search('begin_date=NOW-1MONTH')).body['paging'].total).toBe(2);
  });

  it('answers the documented cause codes for bad parameters', async () => {
    const cause = async (query: string) => {
      const answer = await search(query);
      expect(answer.status).toBe(400);
      return answer.body['cause'][0].code;
    };
    expect(await cause('begin_date=01/03/2026')).toBe(1001);
    expect(await cause('sort=amount')).toBe(1003);
    expect(await cause('criteria=up')).toBe(1004);
    expect(await cause('limit=1001')).toBe(1000);
    expect((await fetch(`${api}/v1/payments/search`)).status).toBe(401);
  });
});

describe('dashboard control routes', () => {
  it('makes payments with no reference of the integrator’s, at any status', async () => {
    const refunded = await dashboard({ amount: 5000, status: 'refunded' });
    expect(refunded.status).toBe(201);
    expect(refunded.body).toMatchObject({ status: 'refunded', external_reference: null, notification_url: null, transaction_amount: 50, transaction_amount_refunded: 50 });
    expect(refunded.body['refunds'][0]).toMatchObject({ status: 'approved', source: { type: 'admin' } });
    expect((await dashboard({ status: 'failed', method: 'card' })).body).toMatchObject({ status: 'rejected', status_detail: 'cc_rejected_other_reason' });
    expect((await dashboard({ method: 'transfer' })).status).toBe(400);
    expect((await controlCall('/__control/dashboard-charges', { account: 'TEST-unknown', amount: 100 })).status).toBe(404);
  });

  it('changes a status behind the integrator’s back without a notification', async () => {
    const made = await fetch(`${api}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${A.access_token}`, 'content-type': 'application/json', 'x-idempotency-key': 'behind-1' },
      body: JSON.stringify({ transaction_amount: 20, payment_method_id: 'pix', payer: { email: 'a@example.com' }, notification_url: hookUrl }),
    });
    const id = ((await made.json()) as Json)['id'];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const created = hooks;
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'paid' })).body).toMatchObject({ status: 'approved', status_detail: 'accredited' });
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'refunded' })).body).toMatchObject({ status: 'refunded', status_detail: 'refunded' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hooks).toBe(created);
    const read = await fetch(`${api}/v1/payments/${id}`, { headers: { authorization: `Bearer ${A.access_token}` } });
    expect(((await read.json()) as Json)['status']).toBe('refunded');
    expect((await controlCall(`/__control/charges/${id}/status`, { status: 'canceled' })).status).toBe(409);
    expect((await controlCall('/__control/charges/999/status', { status: 'paid' })).status).toBe(404);
  });
});

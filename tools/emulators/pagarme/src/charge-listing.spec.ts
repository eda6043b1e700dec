/**
 * The list of orders by creation period with Pagar.me's page pagination, dashboard charges and
 * statuses changed without a webhook (charge-listing.ts). The adapter's side is in
 * services/providers/src/adapters/pagarme/pagarme.listing.contract.spec.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPagarmeEmulator, type PagarmeEmulator } from './pagarme-emulator';

jest.setTimeout(20_000);

const KEY = 'sk_test_listingSpecKey01';
const OTHER_KEY = 'sk_test_listingSpecKey02';
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
let clock = T0;
let emulator: PagarmeEmulator;
let api: string;
let control: string;
let receiver: Server;
const hooks: string[] = [];

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function call(path: string, key = KEY) {
  const response = await fetch(`${api}${path}`, { headers: { authorization: basic(key) } });
  return { status: response.status, body: (await response.json()) as any };
}

async function post(base: string, path: string, body: unknown, key?: string) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: basic(key) } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const order = (code: string, amount: number) => ({
  code,
  items: [{ amount, description: 'Pedido', quantity: 1, code }],
  customer: {
    name: 'Maria Aparecida Souza',
    email: 'maria@example.com',
    document: '52998224725',
    type: 'individual',
    phones: { mobile_phone: { country_code: '55', area_code: '11', number: '999998888' } },
  },
  payments: [{ payment_method: 'pix', pix: { expires_in: 86_400 } }],
});

beforeAll(async () => {
  receiver = createServer((req, res) => {
    hooks.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }, { secret_key: OTHER_KEY }], now: () => new Date(clock), expirySweepMs: 0 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?hmac=x`;
  expect((await post(control, '/__control/webhook', { account: KEY, url })).status).toBe(200);
  // Four orders an hour apart (09:00 … 12:00 UTC), one of another account at 10:30.
  for (const [i, amount] of [1000, 2000, 3000, 4000].entries()) {
    clock = T0 - (3 - i) * 3_600_000;
    expect((await post(api, '/orders', order(`pay_list_${i}`, amount), KEY)).status).toBe(200);
  }
  clock = T0 - 90 * 60_000;
  expect((await post(api, '/orders', order('pay_other', 5000), OTHER_KEY)).status).toBe(200);
  clock = T0;
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('GET /orders by creation period', () => {
  it('filters by created_since/created_until (inclusive), newest first, one account only, in pages with previous/next URLs', async () => {
    const since = new Date(T0 - 2 * 3_600_000).toISOString();
    const until = new Date(T0).toISOString();
    const first = await call(`/orders?created_since=${since}&created_until=${until}&page=1&size=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((o: any) => o.code)).toEqual(['pay_list_3', 'pay_list_2']);
    expect(first.body.paging.total).toBe(3);
    expect(first.body.paging.previous).toBeUndefined();
    const next = new URL(first.body.paging.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({ created_since: since, created_until: until, page: '2', size: '2' });
    const second = await call(`/orders${next.search}`);
    expect(second.body.data.map((o: any) => o.code)).toEqual(['pay_list_1']);
    expect(second.body.paging.next).toBeUndefined();
    expect(second.body.paging.previous).toContain('page=1');
    expect(second.body.data[0].charges[0]).toMatchObject({ amount: 2000, status: 'pending', payment_method: 'pix', created_at: new Date(T0 - 2 * 3_600_000).toISOString() });
  });

  it('caps size at 30, filters by status and refuses a malformed date with 422 on the field', async () => {
    const all = await call('/orders?size=500');
    expect(all.body.data.length).toBeLessThanOrEqual(30);
    expect((await call('/orders?status=paid&size=30')).body.data.every((o: any) => o.status === 'paid')).toBe(true);
    const bad = await call('/orders?created_since=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ message: 'The request is invalid.', errors: { created_since: [expect.any(String)] } });
  });
});

describe('control: dashboard charges and statuses changed behind our back', () => {
  it('creates a back-dated paid dashboard charge without our code, listed in its period, and sends no webhook', async () => {
    const before = emulator.state.listDeliveries().length;
    const created = await post(control, '/__control/dashboard-charges', { account: KEY, amount: 7777, method: 'pix', status: 'paid', created_at: '2026-03-10T09:30:00.000Z' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ charge_id: expect.stringMatching(/^ch_/), amount: 7777, status: 'paid', created_at: '2026-03-10T09:30:00.000Z' });
    expect(created.body.code).not.toMatch(/^pay_/);
    const listed = await call('/orders?created_since=2026-03-10T09:15:00Z&created_until=2026-03-10T09:45:00Z&size=10');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].charges[0]).toMatchObject({ id: created.body.charge_id, status: 'paid', amount: 7777, paid_amount: 7777 });
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
  });

  it('makes card and refunded dashboard charges, and refuses bad bodies and unknown accounts', async () => {
    const card = await post(control, '/__control/dashboard-charges', { account: KEY, amount: 500, method: 'card', status: 'refunded' });
    expect(card.status).toBe(201);
    expect(card.body).toMatchObject({ payment_method: 'credit_card', status: 'canceled' });
    expect((await post(control, '/__control/dashboard-charges', { account: KEY, amount: -1 })).status).toBe(400);
    expect((await post(control, '/__control/dashboard-charges', { account: 'sk_test_nobodyKnowsMe', amount: 100 })).status).toBe(404);
    expect((await post(control, '/__control/dashboard-charges', { account: KEY, amount: 100, method: 'card', status: 'pending' })).status).toBe(409);
  });

  it('pays a pending charge, then refunds it, without any webhook; refuses an impossible change', async () => {
    const made = await post(api, '/orders', order('pay_quiet', 2500), KEY);
    const chargeId = made.body.charges[0].id as string;
    await emulator.webhooksIdle();
    const before = emulator.state.listDeliveries().length;
    const paid = await post(control, `/__control/charges/${chargeId}/status`, { status: 'paid' });
    expect(paid.body).toMatchObject({ status: 'paid', webhooks_scheduled: 0 });
    const refunded = await post(control, `/__control/charges/${chargeId}/status`, { status: 'refunded' });
    expect(refunded.body).toMatchObject({ status: 'canceled', canceled_amount: 2500 });
    const read = await call(`/charges/${chargeId}`);
    expect(read.body).toMatchObject({ status: 'canceled', paid_amount: 2500, canceled_amount: 2500, paid_at: expect.any(String) });
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
    expect((await post(control, `/__control/charges/${chargeId}/status`, { status: 'pending' })).status).toBe(409);
    expect((await post(control, '/__control/charges/ch_unknown/status', { status: 'paid' })).status).toBe(404);
    expect((await post(control, `/__control/charges/${chargeId}/status`, { status: 'shipped' })).status).toBe(400);
  });
});

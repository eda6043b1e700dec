/**
 * PaymentIntents listed by `created` with Stripe's cursor pagination, dashboard charges and
 * statuses changed without an event (charge-listing.ts). The adapter's side is in
 * services/providers/src/adapters/stripe/stripe.listing.contract.spec.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStripeEmulator, type StripeEmulator } from './stripe-emulator';

jest.setTimeout(20_000);

const KEY = 'sk_test_listingSpecA';
const OTHER = 'sk_test_listingSpecB';
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const s = (ms: number) => Math.floor(ms / 1000);
let clock = T0;
let emulator: StripeEmulator;
let api: string;
let control: string;
let receiver: Server;
const ids: string[] = [];

async function call(method: 'GET' | 'POST', path: string, form?: string, key = KEY) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    ...(form === undefined ? {} : { body: form }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function controlCall(path: string, body: unknown) {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

const pix = (amount: number) => `amount=${amount}&currency=brl&payment_method_types[]=pix&confirm=true&payment_method_data[type]=pix`;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  emulator = createStripeEmulator({ accounts: [KEY, OTHER], now: () => new Date(clock), expirySweepMs: 0, refundSettleMs: 10 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await call('POST', '/v1/webhook_endpoints', `url=${encodeURIComponent(url)}&enabled_events[]=*`)).status).toBe(200);
  for (const [i, amount] of [1000, 2000, 3000, 4000].entries()) {
    clock = T0 - (3 - i) * 3_600_000;
    const created = await call('POST', '/v1/payment_intents', pix(amount));
    expect(created.status).toBe(200);
    ids.push(created.body.id);
  }
  clock = T0 - 90 * 60_000;
  expect((await call('POST', '/v1/payment_intents', pix(5000), OTHER)).status).toBe(200);
  clock = T0;
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('GET /v1/payment_intents by created', () => {
  it('filters by created[gte]/created[lt], newest first, one account only, in pages by starting_after with has_more', async () => {
    const range = `created[gte]=${s(T0 - 2 * 3_600_000)}&created[lt]=${s(T0)}`;
    const first = await call('GET', `/v1/payment_intents?${range}&limit=1`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/payment_intents' });
    expect(first.body.data.map((pi: any) => pi.id)).toEqual([ids[2]]);
    const second = await call('GET', `/v1/payment_intents?${range}&limit=1&starting_after=${ids[2]}`);
    expect(second.body.data.map((pi: any) => pi.id)).toEqual([ids[1]]);
    expect(second.body.has_more).toBe(false);
    const inclusive = await call('GET', `/v1/payment_intents?created[gt]=${s(T0 - 2 * 3_600_000)}&created[lte]=${s(T0)}&limit=10`);
    expect(inclusive.body.data.map((pi: any) => pi.id)).toEqual([ids[3], ids[2]]);
    const back = await call('GET', `/v1/payment_intents?limit=1&ending_before=${ids[1]}`);
    expect(back.body.data.map((pi: any) => pi.id)).toEqual([ids[2]]);
  });

  it('expands data.latest_charge.balance_transaction, and refuses an unknown cursor, a bad limit and an expand without data.', async () => {
    await controlCall(`/__control/charges/${ids[0]}/pay`, {});
    const listed = await call('GET', `/v1/payment_intents?created=${s(T0 - 3 * 3_600_000)}&expand[]=data.latest_charge.balance_transaction`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].latest_charge).toMatchObject({ amount: 1000, amount_refunded: 0, balance_transaction: { fee: 12 } });
    expect((await call('GET', '/v1/payment_intents?starting_after=pi_nope')).status).toBe(404);
    expect((await call('GET', '/v1/payment_intents?limit=101')).status).toBe(400);
    expect((await call('GET', '/v1/payment_intents?expand[]=latest_charge')).status).toBe(400);
  });
});

describe('control: dashboard charges and statuses changed behind our back', () => {
  it('creates a back-dated succeeded dashboard intent without metadata, listed in its period, with no event delivered', async () => {
    await emulator.webhooksIdle();
    const before = emulator.state.listDeliveries().length;
    const created = await controlCall('/__control/dashboard-charges', { account: KEY, amount: 7777, method: 'pix', status: 'succeeded', created_at: '2026-03-10T09:30:00.000Z' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^pi_/), status: 'succeeded', created: s(Date.parse('2026-03-10T09:30:00.000Z')) });
    const listed = await call('GET', `/v1/payment_intents?created[gte]=${s(Date.parse('2026-03-10T09:15:00Z'))}&created[lt]=${s(Date.parse('2026-03-10T09:45:00Z'))}&expand[]=data.latest_charge`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ id: created.body.id, status: 'succeeded', amount: 7777, metadata: {} });
    const card = await controlCall('/__control/dashboard-charges', { account: KEY, amount: 900, method: 'card', status: 'refunded' });
    expect(card.body).toMatchObject({ status: 'succeeded', amount_refunded: 900 });
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
    expect((await controlCall('/__control/dashboard-charges', { account: KEY, amount: 10 })).status).toBe(400);
    expect((await controlCall('/__control/dashboard-charges', { account: 'sk_test_unknownKey', amount: 100 })).status).toBe(404);
  });

  it('pays an open intent and refunds it with no event; cancels another; refuses what cannot happen', async () => {
    await emulator.webhooksIdle();
    const before = emulator.state.listDeliveries().length;
    expect((await controlCall(`/__control/charges/${ids[1]}/status`, { status: 'succeeded' })).body).toMatchObject({ status: 'succeeded', webhooks_scheduled: 0 });
    expect((await controlCall(`/__control/charges/${ids[1]}/status`, { status: 'refunded' })).body).toMatchObject({ status: 'succeeded', amount_refunded: 2000 });
    const refunds = await call('GET', `/v1/refunds?payment_intent=${ids[1]}`);
    expect(refunds.body.data).toEqual([expect.objectContaining({ status: 'succeeded', amount: 2000 })]);
    expect((await controlCall(`/__control/charges/${ids[2]}/status`, { status: 'canceled' })).body.status).toBe('canceled');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
    expect((await controlCall(`/__control/charges/${ids[2]}/status`, { status: 'succeeded' })).status).toBe(409);
    expect((await controlCall('/__control/charges/pi_nope/status', { status: 'succeeded' })).status).toBe(404);
    expect((await controlCall(`/__control/charges/${ids[2]}/status`, { status: 'paid' })).status).toBe(400);
  });
});

/**
 * Charges listed by creation period with Woovi's skip/limit pagination, dashboard charges and
 * statuses changed without a webhook (charge-listing.ts). The adapter's side is in
 * services/providers/src/adapters/woovi/woovi.listing.contract.spec.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';

jest.setTimeout(20_000);

const APP = 'Q2xpZW50X0lkX2xpc3Rpbmc6U2VjcmV0MQ==';
const OTHER = 'Q2xpZW50X0lkX290aGVyOlNlY3JldDI=';
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
let clock = T0;
let emulator: WooviEmulator;
let api: string;
let control: string;
let receiver: Server;

async function call(method: string, base: string, path: string, body?: unknown, appId?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(appId ? { authorization: appId } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  emulator = createWooviEmulator({ accounts: [APP, OTHER], now: () => new Date(clock), sweepMs: 0, refundSettleMs: 10 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  for (const event of ['OPENPIX:CHARGE_COMPLETED', 'OPENPIX:CHARGE_EXPIRED', 'OPENPIX:TRANSACTION_REFUND_RECEIVED']) {
    expect((await call('POST', api, '/api/v1/webhook', { webhook: { name: event, event, url, isActive: true } }, APP)).status).toBe(200);
  }
  for (const [i, value] of [1000, 2000, 3000, 4000].entries()) {
    clock = T0 - (3 - i) * 3_600_000;
    expect((await call('POST', api, '/api/v1/charge', { correlationID: `pay_list_${i}`, value, expiresIn: 86_400 }, APP)).status).toBe(200);
  }
  clock = T0 - 90 * 60_000;
  expect((await call('POST', api, '/api/v1/charge', { correlationID: 'pay_other', value: 5000, expiresIn: 86_400 }, OTHER)).status).toBe(200);
  clock = T0;
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('GET /api/v1/charge by creation period', () => {
  it('filters by start/end (inclusive), oldest first, one account only, in skip/limit pages with pageInfo', async () => {
    const start = new Date(T0 - 2 * 3_600_000).toISOString();
    const end = new Date(T0).toISOString();
    const first = await call('GET', api, `/api/v1/charge?start=${start}&end=${end}&skip=0&limit=2`, undefined, APP);
    expect(first.status).toBe(200);
    expect(first.body.charges.map((c: any) => c.correlationID)).toEqual(['pay_list_1', 'pay_list_2']);
    expect(first.body.pageInfo).toEqual({ skip: 0, limit: 2, totalCount: 3, hasPreviousPage: false, hasNextPage: true });
    const second = await call('GET', api, `/api/v1/charge?start=${start}&end=${end}&skip=2&limit=2`, undefined, APP);
    expect(second.body.charges.map((c: any) => c.correlationID)).toEqual(['pay_list_3']);
    expect(second.body.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    expect(second.body.charges[0]).toMatchObject({ value: 4000, status: 'ACTIVE', fee: 32, createdAt: end });
  });

  it('caps limit at 100 and refuses a malformed date with 400', async () => {
    expect((await call('GET', api, '/api/v1/charge?limit=500', undefined, APP)).body.pageInfo.limit).toBe(100);
    const bad = await call('GET', api, '/api/v1/charge?start=ontem', undefined, APP);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('start');
  });
});

describe('control: dashboard charges and statuses changed behind our back', () => {
  it('creates a back-dated COMPLETED dashboard charge with a correlationID of its own, listed in its period, without a webhook', async () => {
    const before = emulator.state.listDeliveries().length;
    const created = await call('POST', control, '/__control/dashboard-charges', { account: APP, amount: 7777, status: 'COMPLETED', created_at: '2026-03-10T09:30:00.000Z' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ value: 7777, status: 'COMPLETED', createdAt: '2026-03-10T09:30:00.000Z', fee: 62 });
    expect(created.body.correlationID).not.toMatch(/^pay_/);
    const listed = await call('GET', api, '/api/v1/charge?start=2026-03-10T09:15:00Z&end=2026-03-10T09:45:00Z', undefined, APP);
    expect(listed.body.charges).toHaveLength(1);
    expect(listed.body.charges[0]).toMatchObject({ correlationID: created.body.correlationID, status: 'COMPLETED', value: 7777 });
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
    expect((await call('POST', control, '/__control/dashboard-charges', { account: APP, amount: 0 })).status).toBe(400);
    expect((await call('POST', control, '/__control/dashboard-charges', { account: 'unknown-app-id', amount: 100 })).status).toBe(404);
  });

  it('pays an ACTIVE charge, then refunds it (a CONFIRMED refund at once), without any webhook; refuses what cannot happen', async () => {
    await call('POST', api, '/api/v1/charge', { correlationID: 'pay_quiet', value: 2500 }, APP);
    await emulator.webhooksIdle();
    const before = emulator.state.listDeliveries().length;
    expect((await call('POST', control, '/__control/charges/pay_quiet/status', { status: 'COMPLETED' })).body).toMatchObject({ status: 'COMPLETED', webhooks: 0 });
    expect((await call('POST', control, '/__control/charges/pay_quiet/status', { status: 'REFUNDED' })).body).toMatchObject({ status: 'COMPLETED', refundable: 0 });
    const refunds = await call('GET', api, '/api/v1/charge/pay_quiet/refund', undefined, APP);
    expect(refunds.body.refunds).toEqual([expect.objectContaining({ status: 'CONFIRMED', value: 2500 })]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
    expect((await call('POST', control, '/__control/charges/pay_quiet/status', { status: 'ACTIVE' })).status).toBe(409);
    expect((await call('POST', control, '/__control/charges/nope/status', { status: 'COMPLETED' })).status).toBe(404);
    expect((await call('POST', control, '/__control/charges/pay_quiet/status', { status: 'PAID' })).status).toBe(400);
  });

  it('expires an ACTIVE charge quietly', async () => {
    await call('POST', api, '/api/v1/charge', { correlationID: 'pay_quiet_expire', value: 900 }, APP);
    await emulator.webhooksIdle();
    const before = emulator.state.listDeliveries().length;
    expect((await call('POST', control, '/__control/charges/pay_quiet_expire/status', { account: APP, status: 'EXPIRED' })).body.status).toBe('EXPIRED');
    expect((await call('GET', api, '/api/v1/charge/pay_quiet_expire', undefined, APP)).body.charge.status).toBe('EXPIRED');
    await emulator.webhooksIdle();
    expect(emulator.state.listDeliveries()).toHaveLength(before);
  });
});

import { createUtmifyEmulator, type UtmifyEmulator } from './utmify-emulator';

const TOKEN = 'utm-token-spec';
const DAY = 86_400_000;

describe('utmify emulator', () => {
  let emulator: UtmifyEmulator;
  let api: string;
  let control: string;
  let now = new Date('2026-03-11T00:00:00.000Z');

  beforeAll(async () => {
    emulator = createUtmifyEmulator({ tokens: [TOKEN], now: () => now });
    const ports = await emulator.start();
    api = `http://127.0.0.1:${ports.apiPort}`;
    control = `http://127.0.0.1:${ports.controlPort}`;
  });
  afterAll(() => emulator.stop());
  beforeEach(async () => {
    now = new Date('2026-03-11T00:00:00.000Z');
    await fetch(`${control}/__control/reset`, { method: 'POST' });
  });

  const order = (overrides: Record<string, unknown> = {}) => ({
    orderId: 'pay_1',
    platform: 'Orquestra',
    paymentMethod: 'pix',
    status: 'waiting_payment',
    createdAt: '2026-03-10 12:00:00',
    approvedDate: null,
    refundedAt: null,
    customer: { name: 'Maria', email: 'maria@example.com', phone: null, document: null },
    products: [{ id: 'p1', name: 'Curso', planId: null, planName: null, quantity: 1, priceInCents: 1000 }],
    trackingParameters: { src: null, sck: null, utm_source: 'fb', utm_campaign: null, utm_medium: null, utm_content: null, utm_term: null },
    commission: { totalPriceInCents: 1000, gatewayFeeInCents: 10, userCommissionInCents: 990 },
    ...overrides,
  });

  async function post(body: unknown, token: string | null = TOKEN) {
    const response = await fetch(`${api}/api-credentials/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-api-token': token } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it('refuses a missing or unknown token with API_CREDENTIAL_NOT_FOUND', async () => {
    expect(await post(order(), null)).toEqual({ status: 404, body: { message: 'API_CREDENTIAL_NOT_FOUND' } });
    expect(await post(order(), 'nope')).toEqual({ status: 404, body: { message: 'API_CREDENTIAL_NOT_FOUND' } });
    const received = (await (await fetch(`${control}/__control/received?auth=unknown`)).json()) as { received: any[] };
    expect(received.received).toHaveLength(1);
    expect(JSON.stringify(received.received)).not.toContain('"nope"');
  });

  it('lists every invalid field', async () => {
    const bad = await post(
      order({
        paymentMethod: 'card',
        status: 'canceled',
        createdAt: '2026-03-10T12:00:00Z',
        customer: { name: 'Maria', email: null, phone: null, document: '123.456' },
        trackingParameters: { utm_source: 'fb' },
        commission: { totalPriceInCents: 10.5, gatewayFeeInCents: 0, userCommissionInCents: 0 },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body['message']).toBe('INVALID_FIELDS');
    const fields = (bad.body['errors'] as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['paymentMethod', 'status', 'createdAt', 'customer.email', 'customer.document', 'trackingParameters.src', 'trackingParameters.utm_term', 'commission.totalPriceInCents']),
    );
    expect(fields).not.toContain('orderId');
  });

  it('keeps one order by orderId, moving forward only', async () => {
    expect((await post(order())).status).toBe(200);
    expect((await post(order({ status: 'paid', approvedDate: '2026-03-10 12:05:00' }))).status).toBe(200);
    expect((await post(order({ status: 'paid', approvedDate: '2026-03-10 12:05:00' }))).status).toBe(200);
    const back = await post(order());
    expect(back).toEqual({ status: 400, body: { message: 'ORDER_STATUS_REGRESSION', currentStatus: 'paid', receivedStatus: 'waiting_payment' } });
    expect((await post(order({ status: 'refused' }))).body['message']).toBe('ORDER_STATUS_REGRESSION');
    expect((await post(order({ status: 'refunded', approvedDate: '2026-03-10 12:05:00', refundedAt: '2026-03-10 13:00:00' }))).status).toBe(200);
    expect((await post(order({ status: 'paid', approvedDate: '2026-03-10 12:05:00' }))).status).toBe(400);
    const moved = await post(order({ status: 'refunded', createdAt: '2026-03-10 12:00:01', approvedDate: '2026-03-10 12:05:00', refundedAt: '2026-03-10 13:00:00' }));
    expect(moved.body['errors']).toEqual([{ field: 'createdAt', message: expect.stringContaining('2026-03-10 12:00:00') }]);
    const stored = (await (await fetch(`${control}/__control/orders/pay_1`)).json()) as any;
    expect(stored.status).toBe('refunded');
    expect(stored.history.map((h: any) => h.status)).toEqual(['waiting_payment', 'paid', 'paid', 'refunded']);
  });

  it('refuses orders older than 7 days (45 for refunds) by its clock', async () => {
    now = new Date(Date.parse('2026-03-10T12:00:00Z') + 7 * DAY + 1000);
    expect((await post(order())).body['message']).toBe('ORDER_TOO_OLD');
    expect((await post(order({ status: 'refunded', approvedDate: '2026-03-10 12:05:00', refundedAt: '2026-03-10 13:00:00' }))).status).toBe(200);
    await fetch(`${control}/__control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 40 }) });
    expect((await post(order({ status: 'chargedback', approvedDate: '2026-03-10 12:05:00', refundedAt: '2026-03-10 13:00:00' }))).body).toMatchObject({ message: 'ORDER_TOO_OLD', maxAgeDays: 45 });
  });

  it('validates test orders without keeping them', async () => {
    expect(await post(order({ isTest: true }))).toEqual({ status: 200, body: { ok: true, test: true, orderId: 'pay_1', status: 'waiting_payment' } });
    expect((await post(order({ isTest: true, status: 'nope' }))).status).toBe(400);
    expect(emulator.orders.size).toBe(0);
    const received = (await (await fetch(`${control}/__control/received?test=true`)).json()) as { received: any[] };
    expect(received.received.map((r) => r.status)).toEqual([200, 400]);
  });

  it('faults: 5xx for the next N requests, then normal; hang and reset until cleared', async () => {
    const setFault = (body: unknown) => fetch(`${control}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await setFault({ mode: 'error', status: 503, times: 2 })).status).toBe(200);
    expect((await post(order())).status).toBe(503);
    expect((await post(order())).status).toBe(503);
    expect((await post(order())).status).toBe(200);
    await setFault({ mode: 'reset' });
    await expect(post(order())).rejects.toThrow();
    await expect(post(order())).rejects.toThrow();
    await fetch(`${control}/__control/faults`, { method: 'DELETE' });
    expect((await post(order())).status).toBe(200);
    await setFault({ mode: 'hang', times: 1 });
    await expect(fetch(`${api}/api-credentials/orders`, { method: 'POST', headers: { 'x-api-token': TOKEN }, signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const faults = (await (await fetch(`${control}/__control/received?outcome=fault`)).json()) as { received: any[] };
    expect(faults.received.map((r) => r.fault)).toEqual(['error', 'error', 'reset', 'reset', 'hang']);
  });

  it('registers tokens through the control port', async () => {
    const created = await fetch(`${control}/__control/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'another' }) });
    expect(created.status).toBe(201);
    expect(((await created.json()) as any).token_id).toMatch(/^[0-9a-f]{12}$/);
    expect((await post(order({ orderId: 'pay_2' }), 'another')).status).toBe(200);
  });
});

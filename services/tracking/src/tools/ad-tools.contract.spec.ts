/**
 * Contract tests: each tool's plan sent by sendToolRequest to its emulator (started in-process),
 * the answer read as the core will read it. The emulators check auth, body shape, hashing format
 * and age limits as the real tools document (tools/emulators/{utmify,meta,tiktok}).
 */
import { createHash } from 'node:crypto';
import { createMetaEmulator, createTiktokEmulator, createUtmifyEmulator, type MetaEmulator, type TiktokEmulator, type UtmifyEmulator } from '@orquestra/emulators';
import type { AdTool, IntegrationConfig, Sale, ToolEvent, ToolRequest } from './ad-tool';
import { createAdTools } from './registry';
import { saleFixture } from './sale-fixture';
import { sendToolRequest } from './send';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
// The fixture sale was made on 2026-03-10; tools and emulators judge ages at the same instant.
const NOW = new Date('2026-03-11T00:00:00.000Z');
const now = () => NOW;

let utmify: UtmifyEmulator;
let meta: MetaEmulator;
let tiktok: TiktokEmulator;
const control: Record<'utmify' | 'meta' | 'tiktok', string> = { utmify: '', meta: '', tiktok: '' };
let tools: ReturnType<typeof createAdTools>;

beforeAll(async () => {
  utmify = createUtmifyEmulator({ tokens: ['utm-token'], now });
  meta = createMetaEmulator({ tokens: [{ token: 'EAAB-token', pixels: ['123456789'] }], now });
  tiktok = createTiktokEmulator({ tokens: [{ token: 'tt-token', pixels: ['C4PIXEL'] }], now });
  const [u, m, t] = await Promise.all([utmify.start(), meta.start(), tiktok.start()]);
  control.utmify = `http://127.0.0.1:${u.controlPort}`;
  control.meta = `http://127.0.0.1:${m.controlPort}`;
  control.tiktok = `http://127.0.0.1:${t.controlPort}`;
  tools = createAdTools({
    utmifyBaseUrl: `http://127.0.0.1:${u.apiPort}`,
    metaGraphBaseUrl: `http://127.0.0.1:${m.apiPort}`,
    metaGraphVersion: 'v25.0',
    tiktokBaseUrl: `http://127.0.0.1:${t.apiPort}`,
  });
});
afterAll(() => Promise.all([utmify.stop(), meta.stop(), tiktok.stop()]));
beforeEach(() => Promise.all(Object.values(control).map((url) => fetch(`${url}/__control/reset`, { method: 'POST' }))));

const configs: Record<'utmify' | 'meta' | 'tiktok', IntegrationConfig> = {
  utmify: { kind: 'utmify', options: { platform: 'Orquestra' }, credentials: { api_token: 'utm-token' } },
  meta: { kind: 'meta', options: { pixel_id: '123456789', test_event_code: 'TEST123' }, credentials: { access_token: 'EAAB-token' } },
  tiktok: { kind: 'tiktok', options: { pixel_code: 'C4PIXEL', test_event_code: 'TEST777' }, credentials: { access_token: 'tt-token' } },
};

function requestFor(tool: AdTool, sale: Sale, event: ToolEvent, config: IntegrationConfig, test = false): ToolRequest {
  const plan = tool.plan(sale, event, config, { test, now: NOW });
  if (!plan.send) throw new Error(`not sent: ${plan.reason}`);
  return plan.request;
}

const send = (tool: AdTool, request: ToolRequest, timeoutMs = 2_000) => sendToolRequest(request, { timeoutMs, tool });

async function received(kind: keyof typeof control, query = ''): Promise<any[]> {
  return ((await (await fetch(`${control[kind]}/__control/received${query}`)).json()) as { received: any[] }).received;
}

async function fault(kind: keyof typeof control, body: Record<string, unknown>) {
  await fetch(`${control[kind]}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('attribution tool (Utmify) against its emulator', () => {
  it('one order updated from waiting_payment through paid to refunded; a backwards status is refused', async () => {
    const tool = tools.utmify;
    const sale = saleFixture({ refunded_at: '2026-03-10T18:00:00.000Z' });
    for (const stage of ['waiting_payment', 'paid', 'refunded'] as const) {
      const answer = await send(tool, requestFor(tool, sale, stage, configs.utmify));
      expect([stage, answer.outcome, answer.status]).toEqual([stage, 'delivered', 200]);
    }
    const order = (await (await fetch(`${control.utmify}/__control/orders/${sale.payment_id}`)).json()) as any;
    expect(order.history.map((h: any) => h.status)).toEqual(['waiting_payment', 'paid', 'refunded']);
    expect(order.order.customer.email).toBe('maria.silva@example.com');

    // The emulator refuses what the core must never send: proof that it would be caught.
    const backwards = await send(tool, requestFor(tool, sale, 'paid', configs.utmify));
    expect(backwards.outcome).toBe('refused');
    expect(backwards.status).toBe(400);
    expect(JSON.parse(backwards.body)).toMatchObject({ message: 'ORDER_STATUS_REGRESSION', currentStatus: 'refunded' });
  });

  it('a wrong token is refused for good', async () => {
    const answer = await send(tools.utmify, requestFor(tools.utmify, saleFixture(), 'paid', { ...configs.utmify, credentials: { api_token: 'wrong' } }));
    expect(answer).toEqual({ outcome: 'refused', status: 404, body: expect.stringContaining('API_CREDENTIAL_NOT_FOUND') });
  });

  it('the tool down (5xx, dropped connection, no answer in time) is retried', async () => {
    const request = requestFor(tools.utmify, saleFixture(), 'paid', configs.utmify);
    await fault('utmify', { mode: 'error', status: 503, times: 1 });
    expect(await send(tools.utmify, request)).toMatchObject({ outcome: 'retry', status: 503 });
    await fault('utmify', { mode: 'reset', times: 1 });
    expect(await send(tools.utmify, request)).toMatchObject({ outcome: 'retry', status: 0 });
    await fault('utmify', { mode: 'hang', times: 1 });
    const hung = await send(tools.utmify, request, 300);
    expect(hung).toMatchObject({ outcome: 'retry', status: 0, body: expect.stringMatching(/^timeout/) });
    expect(await send(tools.utmify, request)).toMatchObject({ outcome: 'delivered', status: 200 });
  });

  it('a test sale is validated and not kept', async () => {
    const answer = await send(tools.utmify, requestFor(tools.utmify, saleFixture({ payment_id: 'pay_test_1' }), 'paid', configs.utmify, true));
    expect(answer.outcome).toBe('delivered');
    expect(JSON.parse(answer.body)).toMatchObject({ test: true });
    expect(utmify.orders.list('pay_test_1')).toEqual([]);
  });
});

describe('Meta Conversions API against its emulator', () => {
  it('a Purchase with hashed e-mail and phone is accepted', async () => {
    const answer = await send(tools.meta, requestFor(tools.meta, saleFixture(), 'purchase', configs.meta));
    expect(answer.outcome).toBe('delivered');
    expect(JSON.parse(answer.body)).toMatchObject({ events_received: 1, messages: [] });
    const [arrived] = await received('meta', '?event_id=pay_3kTq8ZxYw2');
    expect(arrived.body.data[0].user_data).toMatchObject({ em: [sha('maria.silva@example.com')], ph: [sha('5511987654321')] });
    expect(arrived.test).toBe(false);
  });

  it('a sale without a page visit (other) and a subscription cycle (system_generated) are accepted too', async () => {
    expect((await send(tools.meta, requestFor(tools.meta, saleFixture({ visit: null }), 'purchase', configs.meta))).outcome).toBe('delivered');
    expect((await send(tools.meta, requestFor(tools.meta, saleFixture({ visit: null, subscription_id: 'sub_1' }), 'purchase', configs.meta))).outcome).toBe('delivered');
  });

  it('a test send carries the test code and arrives as a test event', async () => {
    expect((await send(tools.meta, requestFor(tools.meta, saleFixture(), 'purchase', configs.meta, true))).outcome).toBe('delivered');
    expect(await received('meta', '?test=true')).toHaveLength(1);
  });

  it('a wrong token or pixel is refused for good; the tool down is retried', async () => {
    const wrongToken = await send(tools.meta, requestFor(tools.meta, saleFixture(), 'purchase', { ...configs.meta, credentials: { access_token: 'EAAB-wrong' } }));
    expect(wrongToken.outcome).toBe('refused');
    expect(JSON.parse(wrongToken.body).error).toMatchObject({ type: 'OAuthException', code: 190 });
    const wrongPixel = await send(tools.meta, requestFor(tools.meta, saleFixture(), 'purchase', { ...configs.meta, options: { pixel_id: '999' } }));
    expect(wrongPixel.outcome).toBe('refused');
    await fault('meta', { mode: 'error', times: 1 });
    expect(await send(tools.meta, requestFor(tools.meta, saleFixture(), 'purchase', configs.meta))).toMatchObject({ outcome: 'retry', status: 500 });
  });
});

describe('TikTok Events API against its emulator', () => {
  it('a Purchase with E.164 phone hash is accepted (code 0)', async () => {
    const answer = await send(tools.tiktok, requestFor(tools.tiktok, saleFixture(), 'purchase', configs.tiktok));
    expect(answer.outcome).toBe('delivered');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 0 });
    const [arrived] = await received('tiktok', '?event_id=pay_3kTq8ZxYw2');
    expect(arrived.body.data[0].user).toMatchObject({ email: [sha('maria.silva@example.com')], phone: [sha('+5511987654321')] });
  });

  it('a wrong token answered 200 with code 40105 is refused; the tool down is retried', async () => {
    const wrong = await send(tools.tiktok, requestFor(tools.tiktok, saleFixture(), 'purchase', { ...configs.tiktok, credentials: { access_token: 'nope' } }));
    expect(wrong).toMatchObject({ outcome: 'refused', status: 200 });
    expect(JSON.parse(wrong.body).code).toBe(40105);
    await fault('tiktok', { mode: 'error', status: 500, times: 1 });
    expect(await send(tools.tiktok, requestFor(tools.tiktok, saleFixture(), 'purchase', configs.tiktok))).toMatchObject({ outcome: 'retry', status: 500 });
    expect((await send(tools.tiktok, requestFor(tools.tiktok, saleFixture(), 'purchase', configs.tiktok, true))).outcome).toBe('delivered');
    expect(await received('tiktok', '?test=true&outcome=accepted')).toHaveLength(1);
  });
});

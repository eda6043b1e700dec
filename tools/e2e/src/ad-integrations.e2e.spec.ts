import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { api, eventually } from './support/api';
import { connectEmulatorAccount, newMerchant } from './support/merchant';
import { stackInfo } from './support/stack-info';

/**
 * Ad integrations end to end (docs/tracking.md): a merchant of its own connects the attribution
 * tool (utmify), Meta's Conversions API and TikTok's Events API, all served by their emulators; its
 * sales go there from the payments events through the tracking service. The test stack retries a
 * send after 1, 2, 3… seconds instead of 1 minute … 24 hours (the schedule's shape is kept).
 */

type Tool = 'utmify' | 'meta' | 'tiktok';
const BUYER_AGENT = 'Mozilla/5.0 (Linux; Android 14) Orquestra-e2e-buyer';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let key: string;
let restrictedKey: string;
const integration: Record<Tool, string> = { utmify: '', meta: '', tiktok: '' };
const metaPixel = String(Date.now());
const tiktokPixel = `C${randomBytes(8).toString('hex').toUpperCase()}`;

async function control(tool: Tool, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${stackInfo().controlUrls[tool]}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const received = async (tool: Tool, query: string): Promise<Array<Record<string, any>>> => (await control(tool, 'GET', `/__control/received?${query}`)).body.received as Array<Record<string, any>>;

async function deliveriesOf(integrationId: string, paymentId: string): Promise<Array<Record<string, any>>> {
  const answer = await api('GET', `/v1/integrations/${integrationId}/deliveries?payment_id=${paymentId}&limit=100`, { key });
  expect(answer.status).toBe(200);
  return answer.body.data as Array<Record<string, any>>;
}

/** The delivery of `event` once it reached `status` (the others keep being waited for). */
const deliveryReaching = (integrationId: string, paymentId: string, event: string, status: string, timeoutMs = 15_000) =>
  eventually(
    async () => (await deliveriesOf(integrationId, paymentId)).find((delivery) => delivery.event === event && delivery.status === status),
    `${event} delivery of ${paymentId} ${status}`,
    timeoutMs,
  );

async function pixPaymentFor(extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const created = await api('POST', '/v1/payments', {
    key,
    idempotencyKey: randomUUID(),
    body: {
      method: 'pix',
      amount: 19_990,
      description: 'Curso de fotografia',
      customer: { name: 'Maria Silva', email: '  Maria.Silva@Example.com ', phone: '+55 (11) 98765-4321', document: '529.982.247-25' },
      ...extra,
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function pay(paymentId: string): Promise<void> {
  expect((await api('POST', `/v1/payments/${paymentId}/simulate`, { key })).status).toBe(200);
  await eventually(async () => ((await api('GET', `/v1/payments/${paymentId}`, { key })).body.status === 'succeeded' ? true : undefined), `${paymentId} paid`);
}

beforeAll(async () => {
  const merchant = await newMerchant('Integrações de anúncios');
  key = merchant.key;
  restrictedKey = merchant.restrictedKey;
  await connectEmulatorAccount(key, 'asaas', 'Asaas Pix', { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` });
  const tokens: Record<Tool, string> = { utmify: `utm-${randomUUID()}`, meta: `EAAB${randomBytes(24).toString('hex')}`, tiktok: randomBytes(20).toString('hex') };
  expect((await control('utmify', 'POST', '/__control/tokens', { token: tokens.utmify })).status).toBeLessThan(300);
  expect((await control('meta', 'POST', '/__control/tokens', { token: tokens.meta, pixels: [metaPixel] })).status).toBeLessThan(300);
  expect((await control('tiktok', 'POST', '/__control/tokens', { token: tokens.tiktok, pixels: [tiktokPixel] })).status).toBeLessThan(300);
  const create = async (body: Record<string, unknown>) => {
    const answer = await api('POST', '/v1/integrations', { key, body });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  integration.utmify = (await create({ kind: 'utmify', name: 'Utmify da loja', credentials: { api_token: tokens.utmify } })).id;
  integration.meta = (await create({ kind: 'meta', credentials: { access_token: tokens.meta }, options: { pixel_id: metaPixel, test_event_code: 'TEST4242' } })).id;
  integration.tiktok = (await create({ kind: 'tiktok', credentials: { access_token: tokens.tiktok }, options: { pixel_code: tiktokPixel, test_event_code: 'TEST5151' } })).id;
});

describe('ad integrations (attribution tool, Meta Conversions API, TikTok Events API)', () => {
  it('are managed with full keys only, and show credentials by their last 4 characters only', async () => {
    const kinds = await api('GET', '/v1/integration-kinds', { key });
    expect(kinds.status).toBe(200);
    expect(kinds.body.data.map((kind: { id: string }) => kind.id).sort()).toEqual(['meta', 'tiktok', 'utmify']);
    const listed = await api('GET', '/v1/integrations', { key });
    const meta = listed.body.data.find((item: { id: string }) => item.id === integration.meta);
    // Created with a test key and no `sales`: it receives test sales.
    expect(meta).toMatchObject({ kind: 'meta', sales: 'test', enabled: true, options: { pixel_id: metaPixel } });
    expect(JSON.stringify(listed.body)).not.toMatch(/EAAB[0-9a-f]{20}/);
    expect(Object.values(meta.credentials_last4 as Record<string, string>).every((shown) => shown.length <= 4)).toBe(true);
    for (const [method, path] of [
      ['GET', '/v1/integrations'],
      ['GET', '/v1/integration-kinds'],
      ['POST', `/v1/integrations/${integration.meta}/test`],
      ['GET', `/v1/integrations/${integration.meta}/deliveries`],
    ] as const) {
      const denied = await api(method, path, { key: restrictedKey });
      expect([path, denied.status, denied.body.error?.code]).toEqual([path, 403, 'restricted_key']);
    }
  });

  it('link with UTMs → paid → refunded: one order updated at the attribution tool, one Purchase at Meta and TikTok with the hashed e-mail', async () => {
    const payment = await pixPaymentFor({ tracking: { utm_source: 'instagram' } });
    // The buyer opens the payment link the ad carried.
    const page = await fetch(`${payment.payment_url}?utm_source=facebook&utm_campaign=black-friday&fbclid=IwAR0abc&utm_medium=cpc`, { headers: { 'user-agent': BUYER_AGENT } });
    expect(page.status).toBe(200);
    await page.text();
    // Creation values win; the link fills the rest.
    const merged = await eventually(async () => {
      const tracking = (await api('GET', `/v1/payments/${payment.id}`, { key })).body.tracking as Record<string, string>;
      return tracking['utm_campaign'] ? tracking : undefined;
    }, 'the link tracking on the payment');
    expect(merged).toEqual({ utm_source: 'instagram', utm_campaign: 'black-friday', fbclid: 'IwAR0abc', utm_medium: 'cpc' });

    // The waiting order first (Pix generated), then paid, then refunded: always the same order.
    await deliveryReaching(integration.utmify, payment.id, 'waiting_payment', 'delivered');
    await pay(payment.id);
    await deliveryReaching(integration.utmify, payment.id, 'paid', 'delivered');
    expect((await api('POST', `/v1/payments/${payment.id}/refund`, { key, body: {} })).status).toBeLessThan(300);
    await deliveryReaching(integration.utmify, payment.id, 'refunded', 'delivered');
    // A test-mode sale goes as isTest (the tool validates it and keeps nothing), so the order is
    // read from what the tool received: the same orderId three times, in order, never backwards.
    const posts = (await received('utmify', `order_id=${payment.id}`)).filter((post) => post.outcome === 'accepted');
    expect(posts.map((post) => post.body.status)).toEqual(['waiting_payment', 'paid', 'refunded']);
    expect(new Set(posts.map((post) => post.body.createdAt)).size).toBe(1);
    const order = posts[posts.length - 1]!.body;
    expect(order).toMatchObject({
      orderId: payment.id,
      paymentMethod: 'pix',
      isTest: true,
      trackingParameters: { utm_source: 'instagram', utm_campaign: 'black-friday', utm_medium: 'cpc' },
      commission: { totalPriceInCents: 19_990 },
    });
    expect(order.customer.email).toBe('maria.silva@example.com');
    expect(order.refundedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // One Purchase at each conversion API, the payment id as event_id, e-mail hashed per their rules.
    const email = sha256('maria.silva@example.com');
    const [metaPurchase] = await eventually(async () => {
      const found = await received('meta', `event_id=${payment.id}&outcome=accepted`);
      return found.length ? found : undefined;
    }, 'the Purchase at Meta');
    const metaEvent = metaPurchase!.body.data[0];
    expect(metaEvent).toMatchObject({ event_name: 'Purchase', event_id: payment.id, action_source: 'website', custom_data: { currency: 'BRL', value: 199.9 } });
    expect(metaEvent.user_data.em).toEqual([email]);
    expect(metaEvent.user_data.ph).toEqual([sha256('5511987654321')]);
    expect(metaEvent.user_data.client_user_agent).toBe(BUYER_AGENT);
    expect(metaEvent.user_data.fbc).toMatch(/^fb\.1\.\d{13}\.IwAR0abc$/);
    expect(metaPurchase!.body.test_event_code).toBe('TEST4242');
    const [tiktokPurchase] = await eventually(async () => {
      const found = await received('tiktok', `event_id=${payment.id}&outcome=accepted`);
      return found.length ? found : undefined;
    }, 'the Purchase at TikTok');
    expect(tiktokPurchase!.body.data[0]).toMatchObject({ event_id: payment.id, user: { email: [email], phone: [sha256('+5511987654321')] } });
    // Never a second one: the refund and the later events send nothing more to them.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await received('meta', `event_id=${payment.id}`)).toHaveLength(1);
    expect(await received('tiktok', `event_id=${payment.id}`)).toHaveLength(1);
    const metaDeliveries = await deliveriesOf(integration.meta, payment.id);
    expect(metaDeliveries.map((delivery) => [delivery.event, delivery.status, delivery.attempts])).toEqual([['purchase', 'delivered', 1]]);
    // The log shows what was sent without the e-mail or the phone.
    expect(JSON.stringify(metaDeliveries)).not.toMatch(/maria|98765/i);
  });

  it('a tool down, then up: the purchase is delivered on the retry schedule', async () => {
    expect((await control('meta', 'POST', '/__control/faults', { mode: 'error', status: 503, times: 2 })).status).toBe(200);
    const payment = await pixPaymentFor();
    await pay(payment.id);
    const delivered = await deliveryReaching(integration.meta, payment.id, 'purchase', 'delivered', 30_000);
    // Two 503s, then taken: the second and third attempts came 1 s and 2 s after the ones before.
    expect(delivered.attempts).toBe(3);
    expect(new Date(delivered.delivered_at).getTime() - new Date(delivered.created_at).getTime()).toBeGreaterThanOrEqual(2_900);
    expect(delivered.response).toMatchObject({ status: 200 });
    expect(await received('meta', `event_id=${payment.id}&outcome=accepted`)).toHaveLength(1);
  });

  it('a 4xx refusal is not retried: the delivery fails and integration.delivery_failed is published', async () => {
    const wrong = await api('POST', '/v1/integrations', { key, body: { kind: 'utmify', name: 'Token errado', credentials: { api_token: `nao-cadastrado-${randomUUID()}` } } });
    expect(wrong.status).toBe(201);
    try {
      const payment = await pixPaymentFor();
      const failed = await deliveryReaching(wrong.body.id, payment.id, 'waiting_payment', 'failed');
      expect(failed).toMatchObject({ reason: 'tool_refused', attempts: 1, response: { status: 404 } });
      expect(failed.reason_text).toEqual(expect.any(String));
      const event = await eventually(async () => {
        const events = (await api('GET', '/v1/events?type=integration.delivery_failed&limit=100', { key })).body.data as Array<Record<string, any>>;
        return events.find((item) => item.data.object.id === failed.id);
      }, 'integration.delivery_failed of the refused send');
      expect(event.data.object).toMatchObject({ object: 'integration_delivery', integration_id: wrong.body.id, payment_id: payment.id, status: 'failed', reason: 'tool_refused' });
      // Still one attempt a few retry periods later.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect((await deliveriesOf(wrong.body.id, payment.id)).find((delivery) => delivery.id === failed.id)?.attempts).toBe(1);
    } finally {
      expect((await api('DELETE', `/v1/integrations/${wrong.body.id}`, { key })).status).toBe(200);
    }
  });

  it('a test sale without a test code is not sent to Meta, with the reason', async () => {
    expect((await api('PATCH', `/v1/integrations/${integration.meta}`, { key, body: { options: { test_event_code: '' } } })).status).toBe(200);
    try {
      const payment = await pixPaymentFor();
      await pay(payment.id);
      const skipped = await deliveryReaching(integration.meta, payment.id, 'purchase', 'not_sent');
      expect(skipped).toMatchObject({ reason: 'missing_test_code', attempts: 0 });
      expect(skipped.reason_text).toMatch(/test_event_code|código de teste/i);
      expect(await received('meta', `event_id=${payment.id}`)).toHaveLength(0);
      // The other tools still got it.
      await deliveryReaching(integration.tiktok, payment.id, 'purchase', 'delivered');
    } finally {
      expect((await api('PATCH', `/v1/integrations/${integration.meta}`, { key, body: { options: { test_event_code: 'TEST4242' } } })).status).toBe(200);
    }
  });

  it('POST /integrations/{id}/test sends the last approved sale as a test, at once', async () => {
    const before = (await received('tiktok', `pixel=${tiktokPixel}&test=true`)).length;
    const answer = await api('POST', `/v1/integrations/${integration.tiktok}/test`, { key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'integration_delivery', integration_id: integration.tiktok, test: true, status: 'delivered', event: 'purchase' });
    const after = await received('tiktok', `pixel=${tiktokPixel}&test=true`);
    expect(after).toHaveLength(before + 1);
    expect(after[after.length - 1]!.body.test_event_code).toBe('TEST5151');
  });
});

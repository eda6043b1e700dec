import { accounts } from '@orquestra/contracts';
import { createRpcClient, verifyWebhookSignature } from '@orquestra/platform';
import { api, createPix, eventually } from './support/api';
import { stackInfo } from './support/stack-info';
import { independentlyVerified, WebhookReceiver } from './support/webhook-receiver';

type Json = Record<string, any>;

/** Webhook e2e: the stack runs retries in seconds (test-stack-main: base 1 s, cap 4 s, timeout 3 s). */
describe('events and webhooks through the REST API', () => {
  const receiver = new WebhookReceiver();
  let restrictedKeyId = '';
  const created: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    const client = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 5_000 });
    restrictedKeyId = (await client.authenticateKey({ secret: stackInfo().restrictedTestKey })).key_id;
    client.close();
  });
  afterEach(async () => {
    // Endpoints of one test must not receive the next test's events.
    while (created.length > 0) await api('DELETE', `/v1/webhook-endpoints/${created.pop()}`);
  });
  afterAll(async () => {
    await receiver.stop();
  });

  async function endpoint(path: string, body: Json = {}): Promise<Json> {
    const answer = await api('POST', '/v1/webhook-endpoints', { body: { url: `${receiver.url}${path}`, events: ['payment.*'], ...body } });
    expect(answer.status).toBe(201);
    created.push(answer.body.id);
    return answer.body;
  }

  async function paidPix(key?: string): Promise<Json> {
    const payment = await createPix({}, key);
    expect((await api('POST', `/v1/payments/${payment.id}/simulate`)).status).toBe(200);
    return payment;
  }

  const forPayment = (path: string, paymentId: string) => receiver.at(path).filter((r) => r.event.data.object.id === paymentId);

  it('delivers every event of a paid Pix (payment.created … payment.succeeded), signed; the secret is shown once', async () => {
    const hook = await endpoint('/paid', { description: 'loja' });
    expect(hook).toMatchObject({ object: 'webhook_endpoint', url: `${receiver.url}/paid`, events: ['payment.*'], enabled: true, mode: 'test' });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const read = await api('GET', `/v1/webhook-endpoints/${hook.id}`);
    expect(read.body.secret).toBeUndefined();
    const list = await api('GET', '/v1/webhook-endpoints?limit=100');
    expect(list.body.data.map((e: Json) => e.id)).toContain(hook.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const payment = await paidPix();
    const got = await eventually(async () => {
      const mine = forPayment('/paid', payment.id);
      return mine.some((r) => r.event.type === 'payment.succeeded') && mine.some((r) => r.event.type === 'payment.created') ? mine : undefined;
    }, 'payment.created and payment.succeeded webhooks', 20_000);
    expect(got.map((r) => r.event.type)).toEqual(expect.arrayContaining(['payment.created', 'payment.succeeded']));
    for (const r of got) {
      expect(independentlyVerified(r.rawBody, r.signature, hook.secret)).toBe(true);
      expect(verifyWebhookSignature(r.rawBody, r.signature, [hook.secret]).ok).toBe(true);
      expect(verifyWebhookSignature(r.rawBody, r.signature, ['whsec_other']).ok).toBe(false);
      expect(r.eventIdHeader).toBe(r.event.id);
      expect(r.event).toMatchObject({ object: 'event', data: { object: { object: 'payment', metadata: expect.any(Object) } } });
    }
    // The webhooks are exactly the log's events of this payment.
    const logged = await api('GET', `/v1/events?payment_id=${payment.id}&limit=100`);
    expect(logged.status).toBe(200);
    expect(logged.body.data.map((e: Json) => e.id).sort()).toEqual([...new Set(got.map((r) => r.event.id))].sort());
    // Each delivery is readable with its attempts.
    const deliveries = await eventually(async () => {
      const page = await api('GET', `/v1/webhook-endpoints/${hook.id}/deliveries?limit=100`);
      const mine = (page.body.data as Json[]).filter((d) => got.some((r) => r.event.id === d.event_id));
      return mine.length === got.length && mine.every((d) => d.status === 'delivered') ? mine : undefined;
    }, 'deliveries delivered');
    const first = deliveries[0]!;
    expect(first).toMatchObject({ object: 'webhook_delivery', endpoint_id: hook.id, next_attempt_at: null, attempts: [{ number: 1, status_code: 200, error: null, manual: false }] });
    const one = await api('GET', `/v1/webhook-deliveries/${first.id}`);
    expect(one.body).toMatchObject({ id: first.id, status: 'delivered' });
  });

  it('filters GET /v1/events by type prefix, time range and payment; restricted keys see only their own', async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const mine = await createPix({}, stackInfo().restrictedTestKey);
    const theirs = await createPix();
    const ofMine = await eventually(async () => {
      const page = await api('GET', `/v1/events?payment_id=${mine.id}`);
      return page.body.data?.length >= 1 ? page.body.data : undefined;
    }, 'events of the bot payment');
    expect(ofMine.map((e: Json) => e.type)).toContain('payment.created');
    await eventually(async () => ((await api('GET', `/v1/events?payment_id=${theirs.id}`)).body.data?.length ? true : undefined), 'events of the other payment');

    const createdOnes = await api('GET', `/v1/events?type=payment.created&created[gte]=${before}&limit=100`);
    expect(createdOnes.body.data.every((e: Json) => e.type === 'payment.created' && e.created >= before)).toBe(true);
    expect(createdOnes.body.data.map((e: Json) => e.data.object.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const none = await api('GET', `/v1/events?type=refund.*&payment_id=${theirs.id}`);
    expect(none.body.data).toEqual([]);
    const prefixed = await api('GET', `/v1/events?type=payment.*&payment_id=${theirs.id}`);
    expect(prefixed.body.data.length).toBeGreaterThanOrEqual(1);
    const old = await api('GET', `/v1/events?created[lte]=${before - 3600}&payment_id=${theirs.id}`);
    expect(old.body.data).toEqual([]);

    const bot = await api('GET', `/v1/events?created[gte]=${before}&limit=100`, { key: stackInfo().restrictedTestKey });
    expect(bot.status).toBe(200);
    const ids = new Set(bot.body.data.map((e: Json) => e.data.object.id));
    expect(ids.has(mine.id)).toBe(true);
    expect(ids.has(theirs.id)).toBe(false);
    const theirEvent = (await api('GET', `/v1/events?payment_id=${theirs.id}`)).body.data[0];
    expect((await api('GET', `/v1/events/${theirEvent.id}`)).status).toBe(200);
    expect((await api('GET', `/v1/events/${theirEvent.id}`, { key: stackInfo().restrictedTestKey })).status).toBe(404);

    const bad = await api('GET', '/v1/events?type=pagamento.pago');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
  });

  it('with only_source sends only the events of payments that key created', async () => {
    await endpoint('/bot', { events: ['payment.created'], only_source: `key:${restrictedKeyId}` });
    await endpoint('/all', { events: ['payment.created'] });
    const fromBot = await createPix({}, stackInfo().restrictedTestKey);
    const fromFull = await createPix();
    await eventually(async () => (forPayment('/all', fromBot.id).length && forPayment('/all', fromFull.id).length ? true : undefined), 'both at /all');
    await eventually(async () => (forPayment('/bot', fromBot.id).length ? true : undefined), 'bot payment at /bot');
    // /all got the full key's payment at the same time; /bot must not get it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(forPayment('/bot', fromFull.id)).toEqual([]);
  });

  it('retries failures (keeping every attempt) until a 2xx, and a resend goes out again with the same event id', async () => {
    let calls = 0;
    receiver.on('/flaky', (_req, res) => {
      calls += 1;
      if (calls <= 2) res.writeHead(500).end('ainda não');
      else res.writeHead(200).end();
    });
    const hook = await endpoint('/flaky', { events: ['payment.created'] });
    const payment = await createPix();
    const delivery = await eventually(async () => {
      const page = await api('GET', `/v1/webhook-endpoints/${hook.id}/deliveries`);
      const d = (page.body.data as Json[]).find((x) => x.status === 'delivered');
      return d;
    }, 'delivered after retries', 20_000);
    expect(delivery.attempts.map((a: Json) => a.status_code)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0].error).toBe('HTTP 500');
    const at = delivery.attempts.map((a: Json) => Date.parse(a.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(700); // ~1 s (±20 %) in this stack
    expect(forPayment('/flaky', payment.id).map((r) => r.event.id)).toEqual(Array(3).fill(delivery.event_id));

    const resent = await api('POST', `/v1/webhook-deliveries/${delivery.id}/resend`);
    expect(resent.status).toBe(202);
    await eventually(async () => (forPayment('/flaky', payment.id).length === 4 ? true : undefined), 'the resend');
    const after = await eventually(async () => {
      const d = (await api('GET', `/v1/webhook-deliveries/${delivery.id}`)).body;
      return d.attempts.length === 4 && d.status === 'delivered' ? d : undefined;
    }, 'the resend recorded');
    expect(after.attempts[3]).toMatchObject({ status_code: 200, manual: true });
  });

  it('disables an endpoint that answers 410 and logs webhook_endpoint.disabled', async () => {
    receiver.on('/gone', (_req, res) => void res.writeHead(410).end());
    const hook = await endpoint('/gone', { events: ['payment.created'] });
    await createPix();
    const disabled = await eventually(async () => {
      const read = (await api('GET', `/v1/webhook-endpoints/${hook.id}`)).body;
      return read.enabled === false ? read : undefined;
    }, 'endpoint disabled');
    expect(disabled.disabled_reason).toBe('gone');
    const events = await eventually(async () => {
      const page = await api('GET', '/v1/events?type=webhook_endpoint.disabled&limit=100');
      return (page.body.data as Json[]).find((e) => e.data.object.id === hook.id);
    }, 'webhook_endpoint.disabled in the log');
    expect(events.data.object).toMatchObject({ object: 'webhook_endpoint', enabled: false, disabled_reason: 'gone' });
    const count = receiver.at('/gone').length;
    await createPix();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.at('/gone').length).toBe(count);
    // Re-enabled by hand, it receives again.
    receiver.on('/gone', (_req, res) => void res.writeHead(204).end());
    const enabled = await api('PATCH', `/v1/webhook-endpoints/${hook.id}`, { body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    await createPix();
    await eventually(async () => (receiver.at('/gone').length > count ? true : undefined), 'delivery after re-enabling');
  });

  it('signs with both secrets after a rotation', async () => {
    const hook = await endpoint('/rotate', { events: ['payment.created'] });
    const rotated = await api('POST', `/v1/webhook-endpoints/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const payment = await createPix();
    const [got] = await eventually(async () => (forPayment('/rotate', payment.id).length ? forPayment('/rotate', payment.id) : undefined), 'rotated delivery');
    expect(got!.signature.match(/v1=/g)).toHaveLength(2);
    expect(independentlyVerified(got!.rawBody, got!.signature, hook.secret)).toBe(true);
    expect(independentlyVerified(got!.rawBody, got!.signature, rotated.body.secret)).toBe(true);
  });

  it('updates and disables by request; a disabled endpoint gets nothing', async () => {
    const hook = await endpoint('/update', { events: ['refund.*'] });
    const changed = await api('PATCH', `/v1/webhook-endpoints/${hook.id}`, { body: { events: ['payment.created'], description: 'bot 2' } });
    expect(changed.body).toMatchObject({ events: ['payment.created'], description: 'bot 2', enabled: true });
    const off = await api('POST', `/v1/webhook-endpoints/${hook.id}`, { body: { enabled: false } });
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: 'by_request' });
    const payment = await createPix();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(forPayment('/update', payment.id)).toEqual([]);
    const deleted = await api('DELETE', `/v1/webhook-endpoints/${hook.id}`);
    expect(deleted.body).toEqual({ id: hook.id, object: 'webhook_endpoint', deleted: true });
    expect((await api('GET', `/v1/webhook-endpoints/${hook.id}`)).status).toBe(404);
  });

  it('refuses bad input in Portuguese with param, and restricted keys with 403', async () => {
    const http = await api('POST', '/v1/webhook-endpoints', { body: { url: 'http://loja.com.br/hook', events: ['*'] } });
    expect(http.status).toBe(400);
    expect(http.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(http.body.error.message).toMatch(/https/);
    const unknown = await api('POST', '/v1/webhook-endpoints', { body: { url: 'https://loja.com.br/hook', events: ['payment.*', 'pagamento.pago'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ param: 'events[1]' });
    const source = await api('POST', '/v1/webhook-endpoints', { body: { url: 'https://loja.com.br/hook', events: ['*'], only_source: 'bot' } });
    expect(source.body.error).toMatchObject({ param: 'only_source' });
    const live = await api('POST', '/v1/webhook-endpoints', { key: stackInfo().liveKey, body: { url: 'http://localhost:9/hook', events: ['*'] } });
    expect(live.status).toBe(400);
    expect(live.body.error.param).toBe('url');
    const bot = await api('POST', '/v1/webhook-endpoints', { key: stackInfo().restrictedTestKey, body: { url: 'https://loja.com.br/hook', events: ['*'] } });
    expect(bot.status).toBe(403);
    expect(bot.body.error.code).toBe('restricted_key');
    // Test and live endpoints are separate.
    const hook = await endpoint('/modes');
    expect((await api('GET', `/v1/webhook-endpoints/${hook.id}`, { key: stackInfo().liveKey })).status).toBe(404);
  });
});

import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectDatabase, ensureIndexes, EventBus, newId, OutboxRelay, SecretBox, type EventEnvelope } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerEventModel, type EventDoc, type EventModel } from '../db/event.model';
import { registerWebhookDeliveryModel, type WebhookDeliveryDoc } from '../db/webhook-delivery.model';
import { WebhookDeliveryStore } from '../db/webhook-delivery.store';
import { registerWebhookEndpointModel, type WebhookEndpointDoc } from '../db/webhook-endpoint.model';
import { WebhookEndpointStore } from '../db/webhook-endpoint.store';
import { fanOutEvent, type FirstAttempts } from '../events/webhook-fanout';
import { createEndpointDisableWorker } from '../jobs/endpoint-disable.worker';
import { createWebhookDeliveryWorker, type DeliveryWorkerOptions } from './webhook-delivery.worker';
import { WebhookSender } from './webhook-sender';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

interface Received {
  url: string;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A receiver whose answer each test chooses. */
function startReceiver(): Promise<{ server: Server; url: string; received: Received[]; answer: (res: ServerResponse, req: IncomingMessage) => void; set(fn: (res: ServerResponse, req: IncomingMessage) => void): void }> {
  const state = {
    received: [] as Received[],
    answer: (res: ServerResponse) => void res.writeHead(200).end('ok'),
  } as { received: Received[]; answer: (res: ServerResponse, req: IncomingMessage) => void };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.received.push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      state.answer(res, req);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        get received() {
          return state.received;
        },
        get answer() {
          return state.answer;
        },
        set: (fn) => {
          state.answer = fn;
        },
      }),
    ),
  );
}

/** Independent check of a Service-Signature header (docs/events.md recipe, node:crypto only). */
function signatureMatches(header: string, body: string, secret: string): boolean {
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))!.slice(2);
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return parts.filter((p) => p.startsWith('v1=')).some((p) => p.slice(3) === expected);
}

describe('webhook deliveries against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let events: EventModel;
  let endpoints: WebhookEndpointStore;
  let deliveries: WebhookDeliveryStore;
  let sender: WebhookSender;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let options: DeliveryWorkerOptions;
  const merchant = `acct_${randomBytes(4).toString('hex')}`;
  const scope = { merchant_id: merchant, mode: 'test' as const };
  const busEvents: EventEnvelope[] = [];

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('webhooks');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}notifications`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: 'probe', patterns: ['webhook_endpoint.*'] }, async (event) => void busEvents.push(event));
    events = registerEventModel(db);
    const outbox = new OutboxRelay({ bus, logger });
    const box = SecretBox.fromConfig(`t1:${randomBytes(32).toString('base64')}`);
    endpoints = new WebhookEndpointStore(registerWebhookEndpointModel(db), box, outbox, 86_400_000);
    deliveries = new WebhookDeliveryStore(registerWebhookDeliveryModel(db));
    await ensureIndexes(db);
    await outbox.watch(endpoints.collection);
    sender = new WebhookSender(1_000);
    receiver = await startReceiver();
    options = {
      events, endpoints, deliveries, sender, logger,
      policy: { baseMs: 60_000, maxDelayMs: 3_600_000, windowMs: 3 * 86_400_000 },
      disableAfterMs: 5 * 86_400_000, pollIntervalMs: 50, concurrency: 4, leaseMs: 5_000,
    };
  });

  afterAll(async () => {
    receiver.server.closeAllConnections();
    receiver.server.close();
    await sender.close();
    await bus.close();
    await dropTestDatabase(db);
  });

  beforeEach(() => {
    receiver.received.length = 0;
    receiver.set((res) => void res.writeHead(200).end('ok'));
  });

  async function logEvent(type: string, source: string | null = 'key_bot', merchantId = merchant): Promise<EventEnvelope> {
    const event: EventEnvelope = {
      id: newId('event'), type, created: Math.floor(Date.now() / 1000), merchant_id: merchantId, mode: 'test', source,
      data: { object: { id: 'pay_x', object: 'payment', amount: 1990, metadata: { pedido: 'ação-1' } } },
    };
    await events.create({ _id: event.id, type, created: event.created, merchant_id: merchantId, mode: 'test', source, resource_id: 'pay_x', payment_id: 'pay_x', data: event.data, received_at: new Date() });
    return event;
  }

  const worker = () => createWebhookDeliveryWorker(options);

  it('delivers a subscribed event once, signed, with the event id header; fan-out twice queues once', async () => {
    const { doc, secret } = await endpoints.create(scope, { url: `${receiver.url}/a`, events: ['payment.*'], only_source: null, description: '' });
    const event = await logEvent('payment.succeeded');
    expect(await fanOutEvent(event, endpoints, deliveries)).toBe(1);
    expect(await fanOutEvent(event, endpoints, deliveries)).toBe(0);
    // Two replicas at once: still one send.
    await Promise.all([worker().tick(), worker().tick()]);

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(JSON.parse(got!.body)).toEqual({ id: event.id, object: 'event', type: 'payment.succeeded', created: event.created, data: event.data });
    expect(got!.headers['service-event-id']).toBe(event.id);
    expect(signatureMatches(String(got!.headers['service-signature']), got!.body, secret)).toBe(true);
    const page = await deliveries.list(scope, { endpoint_id: doc._id, status: '', event_id: '', limit: 10, starting_after: '' });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ status: 'delivered', due_at: null });
    expect(page.data[0]!.attempts).toEqual([expect.objectContaining({ number: 1, status_code: 200, error: '', manual: false })]);
    await endpoints.delete(scope, doc._id);
  });

  it("sends a fan-out's first attempt from what the fan-out read, and reads the store when the hint is not the delivery's", async () => {
    const { doc, secret } = await endpoints.create(scope, { url: `${receiver.url}/h`, events: ['payment.*'], only_source: null, description: '' });
    // Two events that are not in the log: only a hint can give the attempt their body.
    const unlogged = (type: string): EventDoc => ({
      _id: newId('event'), type, created: Math.floor(Date.now() / 1000), merchant_id: merchant, mode: 'test', source: null,
      resource_id: 'pay_h', payment_id: 'pay_h', data: { object: { id: 'pay_h', object: 'payment' } }, received_at: new Date(),
    });
    const hinted = unlogged('payment.succeeded');
    const queued: Array<{ delivery: WebhookDeliveryDoc; endpoint: WebhookEndpointDoc }> = [];
    const counts = { released: 0, kicked: 0 };
    const w = worker();
    const firstAttempts = (): FirstAttempts => ({
      reserve: () => w.leaseEnd(),
      release: () => void (counts.released += 1),
      attempt: (delivery, endpoint) => void queued.push({ delivery, endpoint }),
      queued: () => void (counts.kicked += 1),
    });
    const envelope = (entry: EventDoc) => ({ id: entry._id, type: entry.type, merchant_id: merchant, mode: 'test' as const, source: null });
    expect(await fanOutEvent(envelope(hinted), endpoints, deliveries, firstAttempts())).toBe(1);
    expect(queued[0]!.endpoint).toMatchObject({ _id: doc._id, url: doc.url, secrets: doc.secrets });
    // Stored already leased to the attempt: a due-work pass meanwhile does not send it too.
    expect(queued[0]!.delivery.due_at!.getTime()).toBeGreaterThan(Date.now() + 1_000);
    await worker().tick();
    expect(receiver.received).toHaveLength(0);

    expect(await w.runLeased(queued[0]!.delivery, { event: hinted, endpoint: queued[0]!.endpoint })).toBe(true);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ id: hinted._id, type: 'payment.succeeded' });
    expect(signatureMatches(String(receiver.received[0]!.headers['service-signature']), receiver.received[0]!.body, secret)).toBe(true);
    expect((await deliveries.get(scope, queued[0]!.delivery._id)).status).toBe('delivered');
    // The same event again queues nothing and gives its reservation back.
    expect(await fanOutEvent(envelope(hinted), endpoints, deliveries, firstAttempts())).toBe(0);
    expect(counts).toEqual({ released: 1, kicked: 0 });

    // A hint about another event is not used: the attempt reads the log, misses, and sends nothing.
    const other = unlogged('payment.failed');
    expect(await fanOutEvent(envelope(other), endpoints, deliveries, firstAttempts())).toBe(1);
    expect(await w.runLeased(queued[1]!.delivery, { event: hinted, endpoint: queued[1]!.endpoint })).toBe(false);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries.get(scope, queued[1]!.delivery._id)).attempts).toEqual([]);

    // No room to attempt now: stored due now and left to due work, which sends it.
    const busy: FirstAttempts = { ...firstAttempts(), reserve: () => null };
    const third = await logEvent('payment.succeeded');
    expect(await fanOutEvent(third, endpoints, deliveries, busy)).toBe(1);
    expect(counts.kicked).toBe(1);
    await worker().tick();
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([hinted._id, third.id]);
    await endpoints.delete(scope, doc._id);
  });

  it('skips endpoints of other types, other merchants and other sources (only_source)', async () => {
    const refunds = await endpoints.create(scope, { url: `${receiver.url}/r`, events: ['refund.*'], only_source: null, description: '' });
    const otherKey = await endpoints.create(scope, { url: `${receiver.url}/k`, events: ['*'], only_source: 'key:key_other', description: '' });
    const botKey = await endpoints.create(scope, { url: `${receiver.url}/b`, events: ['*'], only_source: 'key:key_bot', description: '' });
    expect(await fanOutEvent(await logEvent('payment.created'), endpoints, deliveries)).toBe(1);
    expect(await fanOutEvent(await logEvent('payment.created', 'key_bot', 'acct_someone_else'), endpoints, deliveries)).toBe(0);
    await worker().tick();
    expect(receiver.received.map((r) => r.url)).toEqual(['/b']);
    for (const e of [refunds, otherKey, botKey]) await endpoints.delete(scope, e.doc._id);
  });

  it('keeps a failed attempt, schedules a retry honouring Retry-After, and marks the endpoint failing', async () => {
    receiver.set((res) => void res.writeHead(503, { 'retry-after': '7200' }).end('down'));
    const { doc } = await endpoints.create(scope, { url: `${receiver.url}/f`, events: ['payment.failed'], only_source: null, description: '' });
    await fanOutEvent(await logEvent('payment.failed'), endpoints, deliveries);
    const before = Date.now();
    await worker().tick();
    const [delivery] = (await deliveries.list(scope, { endpoint_id: doc._id, status: '', event_id: '', limit: 10, starting_after: '' })).data;
    expect(delivery).toMatchObject({ status: 'pending' });
    expect(delivery!.attempts[0]).toMatchObject({ status_code: 503, error: 'HTTP 503' });
    // Retry-After 2 h beats the 1 min schedule, and stays under the 1 h cap of this policy.
    expect(delivery!.due_at!.getTime() - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(delivery!.due_at!.getTime() - before).toBeLessThanOrEqual(3_600_000 + 5_000);
    expect((await endpoints.byId(doc._id))!.failing_since).toBeInstanceOf(Date);

    // A manual resend goes now; a success clears the failing mark.
    receiver.set((res) => void res.writeHead(204).end());
    await deliveries.resend(scope, delivery!._id);
    await worker().tick();
    const after = await deliveries.get(scope, delivery!._id);
    expect(after.status).toBe('delivered');
    expect(after.attempts.map((a) => [a.status_code, a.manual])).toEqual([[503, false], [204, true]]);
    expect((await endpoints.byId(doc._id))!.failing_since).toBeNull();
    await endpoints.delete(scope, doc._id);
  });

  it('disables an endpoint answering 410 and announces it with webhook_endpoint.disabled', async () => {
    receiver.set((res) => void res.writeHead(410).end());
    const { doc } = await endpoints.create(scope, { url: `${receiver.url}/gone`, events: ['*'], only_source: null, description: '' });
    await fanOutEvent(await logEvent('payment.pending'), endpoints, deliveries);
    await worker().tick();
    const endpoint = await endpoints.byId(doc._id);
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const [delivery] = (await deliveries.list(scope, { endpoint_id: doc._id, status: '', event_id: '', limit: 10, starting_after: '' })).data;
    expect(delivery).toMatchObject({ status: 'failed', due_at: null });
    const announced = await waitFor(() => busEvents.find((e) => (e.data.object as { id?: string }).id === doc._id));
    expect(announced).toMatchObject({ type: 'webhook_endpoint.disabled', merchant_id: merchant, mode: 'test' });
    expect(announced.data.object).toMatchObject({ object: 'webhook_endpoint', enabled: false, disabled_reason: 'gone' });
    expect(JSON.stringify(announced)).not.toContain('whsec_');
    // A disabled endpoint gets nothing new.
    expect(await fanOutEvent(await logEvent('payment.pending'), endpoints, deliveries)).toBe(0);
  });

  it('disables an endpoint that kept failing for 5 days', async () => {
    receiver.set((res) => void res.writeHead(500).end());
    const { doc } = await endpoints.create(scope, { url: `${receiver.url}/sick`, events: ['*'], only_source: null, description: '' });
    await endpoints.model.updateOne({ _id: doc._id }, { $set: { failing_since: new Date(Date.now() - 5 * 86_400_000 - 1_000) } });
    await fanOutEvent(await logEvent('payment.canceled'), endpoints, deliveries);
    await worker().tick();
    expect(await endpoints.byId(doc._id)).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    // A disabled endpoint gets no new deliveries.
    const stuck = await fanOutEvent(await logEvent('payment.canceled'), endpoints, deliveries);
    expect(stuck).toBe(0);
  });

  it('disables an endpoint at the end of its 5 failing days even when no delivery fails then, and never one that recovered', async () => {
    receiver.set((res) => void res.writeHead(500).end());
    // Long enough that the "not yet due" tick below surely falls inside it on a loaded machine.
    const disableAfterMs = 1_500;
    const sick = (await endpoints.create(scope, { url: `${receiver.url}/quiet-sick`, events: ['*'], only_source: null, description: '' })).doc;
    const healed = (await endpoints.create(scope, { url: `${receiver.url}/healed`, events: ['*'], only_source: null, description: '' })).doc;
    // One failed delivery each (then no more events): the disabling is scheduled for failing_since + the period.
    expect(await endpoints.markFailing(sick._id, { gone: false, disableAfterMs })).toBe(false);
    expect(await endpoints.markFailing(healed._id, { gone: false, disableAfterMs })).toBe(false);
    const scheduled = await endpoints.byId(sick._id);
    expect(scheduled!.due_at!.getTime()).toBe(scheduled!.failing_since!.getTime() + disableAfterMs);
    // The other one delivers successfully before its period ends: nothing is scheduled any more.
    await endpoints.markHealthy(healed._id);
    expect((await endpoints.byId(healed._id))!.due_at).toBeNull();

    const disabler = createEndpointDisableWorker({ endpoints, logger, disableAfterMs, pollIntervalMs: 3_600_000 });
    // Not yet due: nothing happens.
    await disabler.tick();
    expect(await endpoints.byId(sick._id)).toMatchObject({ enabled: true });
    await new Promise((resolve) => setTimeout(resolve, disableAfterMs + 50));
    await disabler.tick();
    expect(await endpoints.byId(sick._id)).toMatchObject({ enabled: false, disabled_reason: 'failing', due_at: null });
    expect(await endpoints.byId(healed._id)).toMatchObject({ enabled: true, failing_since: null });
    const announced = await waitFor(() => busEvents.find((e) => e.type === 'webhook_endpoint.disabled' && (e.data.object as { id?: string }).id === sick._id));
    expect(announced.data.object).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    await endpoints.delete(scope, sick._id);
    await endpoints.delete(scope, healed._id);
  });

  it('signs with both secrets for a day after a rotation; either verifies', async () => {
    const { doc, secret: first } = await endpoints.create(scope, { url: `${receiver.url}/rot`, events: ['payment.*'], only_source: null, description: '' });
    const { secret: second, doc: rotated } = await endpoints.rotateSecret(scope, doc._id);
    expect(second).not.toBe(first);
    expect(rotated.secrets).toHaveLength(2);
    expect(JSON.stringify(rotated.secrets)).not.toContain('whsec_');
    await fanOutEvent(await logEvent('payment.refunded'), endpoints, deliveries);
    await worker().tick();
    const got = receiver.received.at(-1)!;
    const header = String(got.headers['service-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(signatureMatches(header, got.body, first)).toBe(true);
    expect(signatureMatches(header, got.body, second)).toBe(true);
    await endpoints.delete(scope, doc._id);
  });

  it('queues one delivery per endpoint when fan-outs of one event race (redeliveries on several replicas)', async () => {
    const a = await endpoints.create(scope, { url: `${receiver.url}/race-a`, events: ['payout.*'], only_source: null, description: '' });
    const b = await endpoints.create(scope, { url: `${receiver.url}/race-b`, events: ['*'], only_source: null, description: '' });
    const event = await logEvent('payout.paid');
    const queued = await Promise.all(Array.from({ length: 20 }, () => fanOutEvent(event, endpoints, deliveries)));
    expect(queued.reduce((sum, n) => sum + n, 0)).toBe(2);
    for (const endpoint of [a, b]) {
      const page = await deliveries.list(scope, { endpoint_id: endpoint.doc._id, status: '', event_id: event.id, limit: 10, starting_after: '' });
      expect(page.data).toHaveLength(1);
    }
    await Promise.all([worker().tick(), worker().tick(), worker().tick()]);
    expect(receiver.received.filter((r) => r.url.startsWith('/race-'))).toHaveLength(2);
    for (const endpoint of [a, b]) await endpoints.delete(scope, endpoint.doc._id);
  });

  it('keeps a resend asked for during an attempt due, and records both attempts once', async () => {
    let calls = 0;
    receiver.set((res) => {
      calls += 1;
      if (calls === 1) setTimeout(() => res.writeHead(500).end(), 300);
      else res.writeHead(200).end();
    });
    const { doc } = await endpoints.create(scope, { url: `${receiver.url}/resent`, events: ['card.*'], only_source: null, description: '' });
    await fanOutEvent(await logEvent('card.updated'), endpoints, deliveries);
    const [queued] = (await deliveries.list(scope, { endpoint_id: doc._id, status: '', event_id: '', limit: 1, starting_after: '' })).data;
    const inFlight = worker().tick();
    await waitFor(() => (receiver.received.some((r) => r.url === '/resent') ? true : undefined));
    const resent = await deliveries.resend(scope, queued!._id);
    await inFlight;
    const between = await deliveries.get(scope, queued!._id);
    // The failed attempt is recorded, but its retry schedule does not replace the resend's.
    expect(between).toMatchObject({ status: 'pending', manual: true, due_at: resent.due_at });
    expect(between.attempts.map((a) => [a.number, a.status_code, a.manual])).toEqual([[1, 500, false]]);
    await worker().tick();
    const after = await deliveries.get(scope, queued!._id);
    expect(after).toMatchObject({ status: 'delivered', manual: false, due_at: null });
    expect(after.attempts.map((a) => [a.number, a.status_code, a.manual])).toEqual([[1, 500, false], [2, 200, true]]);
    await endpoints.delete(scope, doc._id);
  });

  it('disables an endpoint once, with one announcement, when failures race', async () => {
    const { doc } = await endpoints.create(scope, { url: `${receiver.url}/race-gone`, events: ['*'], only_source: null, description: '' });
    const disabled = await Promise.all(Array.from({ length: 20 }, () => endpoints.markFailing(doc._id, { gone: true, disableAfterMs: 5 * 86_400_000 })));
    expect(disabled.filter(Boolean)).toHaveLength(1);
    expect(await endpoints.byId(doc._id)).toMatchObject({ enabled: false, disabled_reason: 'gone', outbox: [] });
    await waitFor(() => busEvents.find((e) => (e.data.object as { id?: string }).id === doc._id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(busEvents.filter((e) => (e.data.object as { id?: string }).id === doc._id)).toHaveLength(1);

    const sick = (await endpoints.create(scope, { url: `${receiver.url}/race-sick`, events: ['*'], only_source: null, description: '' })).doc;
    const startedAt = await Promise.all(
      Array.from({ length: 20 }, (_, i) => endpoints.markFailing(sick._id, { gone: false, disableAfterMs: 60_000, now: new Date(Date.now() + i) })),
    );
    expect(startedAt.some(Boolean)).toBe(false);
    const failing = await endpoints.byId(sick._id);
    // One failure started the period, and the schedule is that failure's.
    expect(failing!.due_at!.getTime()).toBe(failing!.failing_since!.getTime() + 60_000);
    for (const id of [doc._id, sick._id]) await endpoints.delete(scope, id);
  });

  it('gives every caller of concurrent rotations a secret that signs', async () => {
    const { doc, secret: original } = await endpoints.create(scope, { url: `${receiver.url}/race-rot`, events: ['*'], only_source: null, description: '' });
    const rotated = await Promise.all(Array.from({ length: 5 }, () => endpoints.rotateSecret(scope, doc._id)));
    const current = (await endpoints.byId(doc._id))!;
    expect(current.secrets).toHaveLength(6);
    const signing = endpoints.signingSecrets(current);
    expect(new Set(signing)).toEqual(new Set([original, ...rotated.map((r) => r.secret)]));
    await endpoints.delete(scope, doc._id);
  });

  it('counts a timeout and a redirect as failures and never follows the redirect', async () => {
    receiver.set((res, req) => {
      if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 2_500);
      else if (req.url === '/moved') res.writeHead(302, { location: `${receiver.url}/target` }).end();
      else res.writeHead(200).end();
    });
    const slow = await endpoints.create(scope, { url: `${receiver.url}/slow`, events: ['dispute.*'], only_source: null, description: '' });
    const moved = await endpoints.create(scope, { url: `${receiver.url}/moved`, events: ['dispute.*'], only_source: null, description: '' });
    await fanOutEvent(await logEvent('dispute.created'), endpoints, deliveries);
    await worker().tick();
    const first = async (id: string) => (await deliveries.list(scope, { endpoint_id: id, status: '', event_id: '', limit: 1, starting_after: '' })).data[0]!;
    expect((await first(slow.doc._id)).attempts[0]).toMatchObject({ status_code: 0, error: expect.stringMatching(/timeout/) });
    expect((await first(moved.doc._id)).attempts[0]).toMatchObject({ status_code: 302, error: expect.stringMatching(/redirect/) });
    expect(receiver.received.some((r) => r.url === '/target')).toBe(false);
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

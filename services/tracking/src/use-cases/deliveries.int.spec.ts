import { common, integrationDeliveryObjectSchema, type tracking } from '@orquestra/contracts';
import { createMetaEmulator, createTiktokEmulator, createUtmifyEmulator, type MetaEmulator, type TiktokEmulator, type UtmifyEmulator } from '@orquestra/emulators';
import { AppError, REDACT_PATHS, type EventEnvelope } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { DeliveryDoc } from '../db/delivery.model';
import { deliveryWorker } from '../jobs/delivery-worker';
import { caller, envelope, newPaymentId, paymentObject, startHarness, waitFor, type Harness, type PaymentFields } from './tracking-harness';

jest.setTimeout(90_000);

const UTMIFY_TOKEN = 'utmify-token-0123456789';
const META_TOKEN = 'EAAB-meta-token-0123456789';
const TIKTOK_TOKEN = 'tiktok-token-0123456789';
const PIXEL_ID = '111222333';
const PIXEL_CODE = 'CTEST1234567';
/** Short waits between attempts instead of 1, 5, 30 minutes…: four attempts in all. */
const SCHEDULE_MS = [400, 800, 1_200];
const LIVE = common.Mode.MODE_LIVE;

/**
 * Deliveries against the real store and broker, sent over real HTTP to the three tools' emulators
 * (started here, in process): orders updated and never backwards, one purchase on approval, the
 * retry schedule, 4xx not retried with integration.delivery_failed on the bus, test sales, the
 * test send, superseding, a deleted integration, and a restart.
 */
describe('tracking deliveries to the tools (emulators)', () => {
  let h: Harness;
  let utmify: UtmifyEmulator;
  let meta: MetaEmulator;
  let tiktok: TiktokEmulator;
  /** Every log line of the service during the suite (trace level, the platform's redaction). */
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });

  beforeAll(async () => {
    utmify = createUtmifyEmulator({ tokens: [UTMIFY_TOKEN] });
    meta = createMetaEmulator({ tokens: [{ token: META_TOKEN, pixels: [PIXEL_ID] }] });
    tiktok = createTiktokEmulator({ tokens: [{ token: TIKTOK_TOKEN, pixels: [PIXEL_CODE] }] });
    const [u, m, t] = await Promise.all([utmify.start(), meta.start(), tiktok.start()]);
    h = await startHarness(
      'tracking_dlv',
      { utmifyBaseUrl: `http://127.0.0.1:${u.apiPort}`, metaGraphBaseUrl: `http://127.0.0.1:${m.apiPort}`, metaGraphVersion: 'v25.0', tiktokBaseUrl: `http://127.0.0.1:${t.apiPort}` },
      { retryScheduleMs: SCHEDULE_MS, toolTimeoutMs: 2_000, logger: pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink) },
    );
  });

  afterAll(async () => {
    await h?.stop();
    await Promise.all([utmify?.stop(), meta?.stop(), tiktok?.stop()]);
  });

  afterEach(() => {
    utmify.state.faults.clear();
    meta.state.faults.clear();
    tiktok.state.faults.clear();
  });

  const utmifyIntegration = async (merchant: string, mode = LIVE, token = UTMIFY_TOKEN) =>
    (await h.client.createIntegration({ caller: caller(merchant, { mode }), kind: 'utmify', name: '', sales: '', options: {}, credentials: { api_token: token } })).integration!;

  const publish = async (type: string, merchant: string, fields: PaymentFields, created?: number) => {
    const event = envelope(type, merchant, paymentObject({ mode: 'live', ...fields }), created);
    await h.bus.publish(event);
    return event;
  };

  const deliveries = async (merchant: string, integrationId: string, paymentId?: string): Promise<tracking.Delivery[]> =>
    (await h.client.listDeliveries({ caller: caller(merchant, { mode: LIVE }), integration_id: integrationId, limit: 100, starting_after: '', payment_id: paymentId ?? '' })).deliveries;

  const settled = async (merchant: string, integrationId: string, paymentId: string, count: number, timeoutMs = 10_000) => {
    let found: tracking.Delivery[] = [];
    await waitFor(
      async () => {
        found = await deliveries(merchant, integrationId, paymentId);
        return found.length === count && found.every((d) => d.status !== 'pending');
      },
      timeoutMs,
      `${count} settled deliveries`,
    );
    return found;
  };

  const failedEvents = (paymentId: string) => h.published.filter((event: EventEnvelope) => event.type === 'integration.delivery_failed' && (event.data.object as { payment_id: string }).payment_id === paymentId);

  it('attribution tool: waiting_payment → paid → refunded is one order updated in order; repeated and late events send nothing more', async () => {
    const merchant = 'acct_utmify';
    const integration = await utmifyIntegration(merchant);
    const id = newPaymentId();
    const t0 = Math.floor(Date.now() / 1000);
    await publish('payment.pending', merchant, { id, status: 'pending' }, t0);
    await settled(merchant, integration.id, id, 1);
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1);
    await settled(merchant, integration.id, id, 2);
    await publish('payment.refunded', merchant, { id, status: 'refunded', amount_refunded: 12_990 }, t0 + 2);
    await settled(merchant, integration.id, id, 3);
    // The same events again, and the late ones: nothing new reaches the tool.
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1);
    await publish('payment.pending', merchant, { id, status: 'pending' }, t0);
    await publish('payment.refunded', merchant, { id, status: 'refunded', amount_refunded: 12_990 }, t0 + 2);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const sent = await deliveries(merchant, integration.id, id);
    expect(sent.map((d) => [d.event, d.status, d.attempts, d.test])).toEqual([
      ['refunded', 'delivered', 1, false],
      ['paid', 'delivered', 1, false],
      ['waiting_payment', 'delivered', 1, false],
    ]);
    const orders = utmify.orders.list(id);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.history.map((step) => step.status)).toEqual(['waiting_payment', 'paid', 'refunded']);
    expect(orders[0]!.order).toMatchObject({ orderId: id, status: 'refunded', customer: { email: 'ana.lima@example.com' }, trackingParameters: { utm_source: 'facebook', utm_campaign: 'black-friday' } });
    expect(utmify.state.received.list({ order_id: id })).toHaveLength(3);
    // The log keeps the tool's answer and a summary without the raw e-mail, phone or token.
    expect(sent[0]!.response_status).toBe(200);
    expect(sent[0]!.response_body).toContain(id);
    for (const delivery of sent) {
      expect(delivery.request_summary).not.toMatch(/ana\.lima|Ana\.Lima|98765|4321|utmify-token/i);
      expect(delivery.delivered_at).not.toBe('');
    }
    const raw = await h.db.collection('deliveries').find({ payment_id: id }).toArray();
    expect(JSON.stringify(raw)).not.toContain(UTMIFY_TOKEN);
  });

  it('attribution tool: stages of an order arriving at once and repeated never reach the tool backwards; one delivery per event', async () => {
    const merchant = 'acct_burst';
    const integration = await utmifyIntegration(merchant);
    const ids = Array.from({ length: 5 }, () => newPaymentId());
    const t0 = Math.floor(Date.now() / 1000);
    await Promise.all(
      ids.flatMap((id) => [
        publish('payment.pending', merchant, { id, status: 'pending' }, t0),
        publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1),
        publish('payment.refunded', merchant, { id, status: 'refunded', amount_refunded: 12_990 }, t0 + 2),
        publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1),
        publish('payment.pending', merchant, { id, status: 'pending' }, t0),
      ]),
    );
    const rank = { waiting_payment: 0, paid: 1, refused: 1, refunded: 2, chargedback: 2 } as const;
    for (const id of ids) {
      await waitFor(async () => (await deliveries(merchant, integration.id, id)).some((d) => d.event === 'refunded' && d.status === 'delivered'), 15_000, 'refunded delivered');
      await waitFor(async () => (await deliveries(merchant, integration.id, id)).every((d) => d.status !== 'pending'), 15_000, 'all settled');
      const sent = await deliveries(merchant, integration.id, id);
      expect(new Set(sent.map((d) => d.event)).size).toBe(sent.length);
      expect(sent.filter((d) => d.status === 'failed')).toEqual([]);
      const history = utmify.orders.list(id)[0]!.history.map((step) => step.status);
      expect(history[history.length - 1]).toBe('refunded');
      history.forEach((status, i) => i > 0 && expect(rank[status]).toBeGreaterThan(rank[history[i - 1]!]));
      expect(utmify.state.received.list({ order_id: id }).filter((r) => r.outcome !== 'accepted')).toEqual([]);
    }
  });

  it('Meta and TikTok: one purchase on approval with the payment id as event_id and the e-mail hashed; nothing for other stages', async () => {
    const merchant = 'acct_social';
    const metaIntegration = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'meta', name: '', sales: '', options: { pixel_id: PIXEL_ID }, credentials: { access_token: META_TOKEN } })).integration!;
    const tiktokIntegration = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'tiktok', name: '', sales: '', options: { pixel_code: PIXEL_CODE }, credentials: { access_token: TIKTOK_TOKEN } })).integration!;
    const id = newPaymentId();
    await h.client.recordVisit({ payment_id: id, merchant_id: merchant, mode: LIVE, tracking: { fbclid: 'IwAR-abc' }, ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0', url: `https://pay.example/${id}?fbclid=IwAR-abc`, referrer: '' });
    const t0 = Math.floor(Date.now() / 1000);
    await publish('payment.pending', merchant, { id, status: 'pending' }, t0);
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1);
    const [metaSent] = await settled(merchant, metaIntegration.id, id, 1);
    const [tiktokSent] = await settled(merchant, tiktokIntegration.id, id, 1);
    await publish('payment.refunded', merchant, { id, status: 'refunded', amount_refunded: 12_990 }, t0 + 2);
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(metaSent).toMatchObject({ event: 'purchase', status: 'delivered', attempts: 1, response_status: 200 });
    expect(tiktokSent).toMatchObject({ event: 'purchase', status: 'delivered', attempts: 1, response_status: 200 });
    expect(await deliveries(merchant, metaIntegration.id)).toHaveLength(1);
    expect(await deliveries(merchant, tiktokIntegration.id)).toHaveLength(1);
    const emailHash = createHash('sha256').update('ana.lima@example.com').digest('hex');
    const metaReceived = meta.state.received.list({ event_id: id });
    expect(metaReceived).toHaveLength(1);
    expect(metaReceived[0]).toMatchObject({ outcome: 'accepted', test: false });
    expect(JSON.stringify(metaReceived[0]!.body)).toContain(emailHash);
    expect(JSON.stringify(metaReceived[0]!.body)).not.toMatch(/ana\.lima@/i);
    const tiktokReceived = tiktok.state.received.list({ event_id: id });
    expect(tiktokReceived).toHaveLength(1);
    expect(tiktokReceived[0]).toMatchObject({ outcome: 'accepted', test: false });
    expect(JSON.stringify(tiktokReceived[0]!.body)).toContain(emailHash);
  });

  it('a refund seen before the approval: Meta still gets its purchase, the order is not sent back to paid', async () => {
    const merchant = 'acct_late_paid';
    const metaIntegration = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'meta', name: '', sales: '', options: { pixel_id: PIXEL_ID }, credentials: { access_token: META_TOKEN } })).integration!;
    const order = await utmifyIntegration(merchant);
    const id = newPaymentId();
    const t0 = Math.floor(Date.now() / 1000);
    await publish('payment.refunded', merchant, { id, status: 'refunded', amount_refunded: 12_990 }, t0 + 5);
    await settled(merchant, order.id, id, 1);
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0);
    const [purchase] = await settled(merchant, metaIntegration.id, id, 1);
    expect(purchase).toMatchObject({ event: 'purchase', status: 'delivered' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await deliveries(merchant, order.id, id)).map((d) => [d.event, d.status])).toEqual([['refunded', 'delivered']]);
    expect(utmify.orders.list(id)[0]!.history.map((step) => step.status)).toEqual(['refunded']);
  });

  it('a tool down then up: delivered on the retry schedule', async () => {
    const merchant = 'acct_down';
    const integration = await utmifyIntegration(merchant);
    const started = Date.now();
    utmify.state.faults.set({ mode: 'error', status: 503, times: 2 });
    const id = newPaymentId();
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' });
    const [delivery] = await settled(merchant, integration.id, id, 1, 15_000);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, response_status: 200, reason: '' });
    const arrivals = utmify.state.received.list().filter((r) => Date.parse(r.at) >= started && (r.outcome === 'fault' || r.keys['order_id'] === id));
    expect(arrivals.map((r) => r.status)).toEqual([503, 503, 200]);
    const times = arrivals.map((r) => Date.parse(r.at));
    // Each wait is at least the schedule's (and not wildly more).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(SCHEDULE_MS[0]! - 50);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(SCHEDULE_MS[1]! - 50);
    expect(times[2]! - times[0]!).toBeLessThan(SCHEDULE_MS[0]! + SCHEDULE_MS[1]! + 3_000);
    expect(failedEvents(id)).toEqual([]);
  });

  it('every retry failing: failed with retries_exhausted after the schedule, and integration.delivery_failed published', async () => {
    const merchant = 'acct_exhausted';
    const integration = await utmifyIntegration(merchant);
    utmify.state.faults.set({ mode: 'error', status: 500 });
    const id = newPaymentId();
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' });
    const [delivery] = await settled(merchant, integration.id, id, 1, 15_000);
    expect(delivery).toMatchObject({ status: 'failed', reason: 'retries_exhausted', attempts: SCHEDULE_MS.length + 1, response_status: 500 });
    expect(delivery!.reason_text).toMatch(/tentativas/);
    await waitFor(() => failedEvents(id).length === 1, 10_000, 'delivery_failed event');
    const event = failedEvents(id)[0]!;
    expect(event).toMatchObject({ merchant_id: merchant, mode: 'live' });
    expect(integrationDeliveryObjectSchema.parse(event.data.object)).toMatchObject({ id: delivery!.id, integration_id: integration.id, status: 'failed', reason: 'retries_exhausted' });
  });

  it('a 4xx refusal is not retried, and integration.delivery_failed is published', async () => {
    const merchant = 'acct_refused';
    const integration = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'meta', name: '', sales: '', options: { pixel_id: PIXEL_ID }, credentials: { access_token: 'EAAB-unknown-token-0000' } })).integration!;
    const id = newPaymentId();
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' });
    const [delivery] = await settled(merchant, integration.id, id, 1);
    expect(delivery).toMatchObject({ status: 'failed', reason: 'tool_refused', attempts: 1, response_status: 400, next_attempt_at: '' });
    expect(delivery!.response_body).toContain('OAuthException');
    await waitFor(() => failedEvents(id).length === 1, 10_000, 'delivery_failed event');
    expect(integrationDeliveryObjectSchema.parse(failedEvents(id)[0]!.data.object)).toMatchObject({ status: 'failed', reason: 'tool_refused', integration_id: integration.id, payment_id: id });
    // Past the first retry's time: the tool heard of it once.
    await new Promise((resolve) => setTimeout(resolve, SCHEDULE_MS[0]! + 600));
    expect(meta.state.received.list().filter((r) => r.auth === 'unknown')).toHaveLength(1);
    expect((await deliveries(merchant, integration.id, id))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('a test sale without a test code is not sent (missing_test_code); with one it is sent as a test', async () => {
    const merchant = 'acct_testsale';
    const noCode = (await h.client.createIntegration({ caller: caller(merchant), kind: 'meta', name: '', sales: 'test', options: { pixel_id: PIXEL_ID }, credentials: { access_token: META_TOKEN } })).integration!;
    const withCode = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'tiktok', name: '', sales: 'both', options: { pixel_code: PIXEL_CODE, test_event_code: 'TEST999' }, credentials: { access_token: TIKTOK_TOKEN } })).integration!;
    const id = newPaymentId();
    await publish('payment.succeeded', merchant, { id, status: 'succeeded', mode: 'test' });
    const [notSent] = await settled(merchant, noCode.id, id, 1);
    expect(notSent).toMatchObject({ status: 'not_sent', reason: 'missing_test_code', attempts: 0, test: true });
    expect(notSent!.reason_text.length).toBeGreaterThan(10);
    expect(meta.state.received.list({ event_id: id })).toEqual([]);
    const [sent] = await settled(merchant, withCode.id, id, 1);
    expect(sent).toMatchObject({ status: 'delivered', test: true });
    expect(tiktok.state.received.list({ event_id: id })[0]).toMatchObject({ test: true, outcome: 'accepted' });
  });

  it('POST /integrations/{id}/test: not_found without an approved sale; then the last approved sale sent once as a test, again on request', async () => {
    const merchant = 'acct_testsend';
    const integration = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'meta', name: '', sales: 'both', options: { pixel_id: PIXEL_ID, test_event_code: 'TEST42' }, credentials: { access_token: META_TOKEN } })).integration!;
    const none = await h.client.testIntegration({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id }).catch((error: AppError) => error);
    expect(none).toMatchObject({ code: 'not_found', param: 'integration' });
    expect((none as AppError).message).toMatch(/Nenhuma venda aprovada/);
    await expect(h.client.testIntegration({ caller: caller('acct_someone_else'), integration_id: integration.id })).rejects.toMatchObject({ code: 'not_found', param: 'integration' });

    const older = newPaymentId();
    const last = newPaymentId();
    const t0 = Math.floor(Date.now() / 1000);
    await publish('payment.succeeded', merchant, { id: older, status: 'succeeded' }, t0 - 60);
    await publish('payment.succeeded', merchant, { id: last, status: 'succeeded' }, t0);
    await settled(merchant, integration.id, last, 1);
    await settled(merchant, integration.id, older, 1);

    const first = (await h.client.testIntegration({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id })).delivery!;
    expect(first).toMatchObject({ payment_id: last, event: 'purchase', test: true, status: 'delivered', attempts: 1, response_status: 200 });
    const second = (await h.client.testIntegration({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id })).delivery!;
    expect(second).toMatchObject({ payment_id: last, test: true, status: 'delivered' });
    expect(second.id).not.toBe(first.id);
    const atTool = meta.state.received.list({ event_id: last });
    expect(atTool.map((r) => r.test)).toEqual([false, true, true]);

    // A tool that is down gets one try: the test answers failed at once, no retry, no event.
    meta.state.faults.set({ mode: 'error', status: 503 });
    const down = (await h.client.testIntegration({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id })).delivery!;
    expect(down).toMatchObject({ status: 'failed', reason: 'tool_unavailable', attempts: 1, response_status: 503, next_attempt_at: '' });
    expect(failedEvents(last)).toEqual([]);
  });

  it('deliveries list: newest first, by pages, one payment or all', async () => {
    const merchant = 'acct_pages';
    const integration = await utmifyIntegration(merchant);
    const ids = [newPaymentId(), newPaymentId(), newPaymentId()];
    for (const id of ids) await publish('payment.succeeded', merchant, { id, status: 'succeeded' });
    await waitFor(async () => (await deliveries(merchant, integration.id)).length === 3, 10_000, 'three deliveries');
    const page1 = await h.client.listDeliveries({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id, limit: 2, starting_after: '', payment_id: '' });
    expect(page1.has_more).toBe(true);
    const page2 = await h.client.listDeliveries({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id, limit: 2, starting_after: page1.deliveries[1]!.id, payment_id: '' });
    expect(page2.has_more).toBe(false);
    const all = [...page1.deliveries, ...page2.deliveries].map((d) => d.id);
    expect(all).toEqual([...all].sort().reverse());
    expect(new Set([...page1.deliveries, ...page2.deliveries].map((d) => d.payment_id))).toEqual(new Set(ids));
    await expect(h.client.listDeliveries({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id, limit: 101, starting_after: '', payment_id: '' })).rejects.toMatchObject({ param: 'limit' });
    await expect(h.client.listDeliveries({ caller: caller('acct_not_mine'), integration_id: integration.id, limit: 0, starting_after: '', payment_id: '' })).rejects.toMatchObject({ code: 'not_found', param: 'integration' });
  });

  it('attribution tool: a higher stage supersedes a lower one still waiting for the tool; a deleted integration drops its pending sends', async () => {
    const merchant = 'acct_supersede';
    const integration = await utmifyIntegration(merchant);
    utmify.state.faults.set({ mode: 'error', status: 503 });
    const id = newPaymentId();
    const t0 = Math.floor(Date.now() / 1000);
    await publish('payment.pending', merchant, { id, status: 'pending' }, t0);
    await waitFor(async () => (await deliveries(merchant, integration.id, id))[0]?.attempts === 1, 10_000, 'first failed attempt');
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' }, t0 + 1);
    await waitFor(async () => (await deliveries(merchant, integration.id, id)).length === 2, 10_000, 'paid delivery');
    utmify.state.faults.clear();
    const [paid, waiting] = await settled(merchant, integration.id, id, 2, 15_000);
    expect(paid).toMatchObject({ event: 'paid', status: 'delivered' });
    expect(waiting).toMatchObject({ event: 'waiting_payment', status: 'superseded', reason: 'superseded' });
    expect(utmify.orders.list(id)[0]!.history.map((step) => step.status)).toEqual(['paid']);

    // Pending sends of a deleted integration are not sent, with the reason.
    const other = await utmifyIntegration('acct_deleted');
    utmify.state.faults.set({ mode: 'error', status: 503 });
    const dropped = newPaymentId();
    await publish('payment.succeeded', 'acct_deleted', { id: dropped, status: 'succeeded' });
    await waitFor(async () => (await deliveries('acct_deleted', other.id, dropped))[0]?.attempts === 1, 10_000, 'a failed attempt');
    await h.client.deleteIntegration({ caller: caller('acct_deleted', { mode: LIVE }), integration_id: other.id });
    utmify.state.faults.clear();
    await new Promise((resolve) => setTimeout(resolve, SCHEDULE_MS[0]! + 600));
    const doc = (await h.db.collection('deliveries').findOne({ payment_id: dropped })) as unknown as DeliveryDoc;
    expect(doc).toMatchObject({ status: 'not_sent', reason: 'integration_deleted', due_at: null });
    // The first retry (400 ms on) may fall before the delete on a loaded machine (failing: the fault
    // is still set); none is sent after it, which the tool's empty record says.
    expect(doc.attempts).toBeGreaterThanOrEqual(1);
    expect(utmify.orders.list(dropped)).toEqual([]);
  });

  it('which sales an integration takes: its `sales` option; a disabled one gets none, a pending send of one disabled meanwhile is not sent', async () => {
    const merchant = 'acct_sales_option';
    const liveOnly = await utmifyIntegration(merchant, LIVE);
    const testOnly = await utmifyIntegration(merchant, common.Mode.MODE_TEST);
    const disabled = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'utmify', name: '', sales: 'both', options: {}, credentials: { api_token: UTMIFY_TOKEN }, enabled: false })).integration!;
    const live = newPaymentId();
    const test = newPaymentId();
    await publish('payment.succeeded', merchant, { id: live, status: 'succeeded' });
    await publish('payment.succeeded', merchant, { id: test, status: 'succeeded', mode: 'test' });
    await settled(merchant, liveOnly.id, live, 1);
    await settled(merchant, testOnly.id, test, 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await deliveries(merchant, liveOnly.id, test)).toEqual([]);
    expect(await deliveries(merchant, testOnly.id, live)).toEqual([]);
    expect(await deliveries(merchant, disabled.id)).toEqual([]);

    utmify.state.faults.set({ mode: 'error', status: 503 });
    const later = newPaymentId();
    await publish('payment.succeeded', merchant, { id: later, status: 'succeeded' });
    await waitFor(async () => (await deliveries(merchant, liveOnly.id, later))[0]?.attempts === 1, 10_000, 'a failed attempt');
    await h.client.updateIntegration({ caller: caller(merchant, { mode: LIVE }), integration_id: liveOnly.id, enabled: false, options: {}, credentials: {} });
    utmify.state.faults.clear();
    const [dropped] = await settled(merchant, liveOnly.id, later, 1);
    expect(dropped).toMatchObject({ status: 'not_sent', reason: 'integration_disabled', attempts: 1 });
    expect(utmify.orders.list(later)).toEqual([]);
  });

  it('a change of sales is honoured: a test key reads test sales only; a live send still pending is not sent once live sales are off', async () => {
    const merchant = 'acct_sales_change';
    const integration = (await h.client.createIntegration({ caller: caller(merchant, { mode: LIVE }), kind: 'utmify', name: '', sales: 'both', options: {}, credentials: { api_token: UTMIFY_TOKEN } })).integration!;
    const testSale = newPaymentId();
    await publish('payment.succeeded', merchant, { id: testSale, status: 'succeeded', mode: 'test' });
    await settled(merchant, integration.id, testSale, 1);
    // The tool is down for the live sale: its send waits for a retry.
    utmify.state.faults.set({ mode: 'error', status: 503 });
    const liveSale = newPaymentId();
    await publish('payment.succeeded', merchant, { id: liveSale, status: 'succeeded' });
    await waitFor(async () => (await deliveries(merchant, integration.id, liveSale))[0]?.attempts === 1, 10_000, 'the live send tried once');
    await h.client.updateIntegration({ caller: caller(merchant, { mode: LIVE }), integration_id: integration.id, sales: 'test', options: {}, credentials: {} });
    utmify.state.faults.clear();
    const [skipped] = await settled(merchant, integration.id, liveSale, 1);
    expect(skipped).toMatchObject({ status: 'not_sent', reason: 'sales_changed', attempts: 1 });
    expect(utmify.state.received.list({ order_id: liveSale }).filter((r) => r.outcome === 'accepted')).toEqual([]);
    // Now visible to a test key, the integration shows it the test sale's send only.
    const seen = await h.client.listDeliveries({ caller: caller(merchant), integration_id: integration.id, limit: 100, starting_after: '', payment_id: '' });
    expect(seen.deliveries.map((d) => d.payment_id)).toEqual([testSale]);
  });

  it('logs: no credential, raw e-mail or phone in any line of the suite', async () => {
    expect(lines.length).toBeGreaterThan(20);
    const all = lines.join('');
    expect(all).toContain('delivery attempt');
    for (const secret of [UTMIFY_TOKEN, META_TOKEN, TIKTOK_TOKEN, 'EAAB-unknown-token-0000', 'ana.lima@example.com', 'Ana.Lima@Example.com', '98765-4321', '11987654321', '987654321']) {
      expect(all).not.toContain(secret);
    }
  });

  it('restart: a test send left by a process that stopped mid-try is closed as test_interrupted, never sent', async () => {
    const merchant = 'acct_test_interrupted';
    const integration = await utmifyIntegration(merchant);
    const id = newPaymentId();
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' });
    await settled(merchant, integration.id, id, 1);
    const before = utmify.orders.list(id).length;
    // What TestIntegration writes before its one try, as a process that died during it left it.
    const now = new Date();
    await h.module.models.deliveryModel.collection.insertOne({
      _id: 'dlv_interrupted_' + id.slice(4), merchant_id: merchant, integration_id: integration.id, kind: 'utmify', payment_id: id, mode: 'live',
      event: 'paid', test: true, nonce: 'req_interrupted', status: 'pending', reason: null, reason_text: null, attempts: 0,
      next_attempt_at: null, sending_until: null, request_summary: null, response_status: null, response_body: null,
      created_at: now, updated_at: now, delivered_at: null, due_at: new Date(now.getTime() - 1_000), outbox: [], outbox_since: null, outbox_lease: null,
    } as never);
    await waitFor(async () => (await h.module.models.deliveryModel.findById('dlv_interrupted_' + id.slice(4)).lean())?.status === 'failed', 10_000, 'the interrupted test closed');
    const closed = await h.module.models.deliveryModel.findById('dlv_interrupted_' + id.slice(4)).lean();
    expect(closed).toMatchObject({ status: 'failed', reason: 'test_interrupted', attempts: 0, due_at: null });
    expect(utmify.orders.list(id)).toHaveLength(before);
    expect(failedEvents(id)).toEqual([]);
  });

  it('restart: a delivery due while no worker ran is sent when a new worker starts', async () => {
    const merchant = 'acct_restart';
    const integration = await utmifyIntegration(merchant);
    await h.module.worker.stop();
    const id = newPaymentId();
    await publish('payment.succeeded', merchant, { id, status: 'succeeded' });
    await waitFor(async () => (await deliveries(merchant, integration.id, id)).length === 1, 10_000, 'the delivery');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await deliveries(merchant, integration.id, id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(utmify.orders.list(id)).toEqual([]);

    // A new process's worker: nothing in memory, it finds the due delivery by its scan.
    const worker = deliveryWorker(h.module.models.deliveryModel, h.module.deliveries, pino({ level: 'silent' }), { pollIntervalMs: 100, toolTimeoutMs: 2_000 });
    worker.start();
    try {
      const [delivery] = await settled(merchant, integration.id, id, 1);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(utmify.orders.list(id)[0]!.status).toBe('paid');
    } finally {
      await worker.stop();
    }
  });
});

import { AppError, connectDatabase, ensureIndexes, EventBus, OutboxRelay, type EventEnvelope } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerFailedCreationModel } from '../db/failed-creation.model';
import { registerPaymentModel, type PaymentDoc, type PaymentModel } from '../db/payment.model';
import { PaymentStore } from '../db/payment.store';
import { PaymentLinks } from '../domain/payment-links';
import { PageTracking } from './page-tracking';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

/**
 * RecordPageTracking against the real store: the page's address fills only the keys still
 * absent, by conditional writes, so creation values and the first visit win even when visits race.
 */
describe('payment page tracking (real store)', () => {
  let db: Connection;
  let bus: EventBus;
  let model: PaymentModel;
  let store: PaymentStore;
  let tracking: PageTracking;
  const published: EventEnvelope[] = [];
  let seq = 0;

  const insert = async (stored: Record<string, string> = {}): Promise<PaymentDoc> => {
    const created = new Date(Date.now() - 60_000);
    const doc = {
      _id: `pay_pt${Date.now()}${seq++}`, merchant_id: 'acct_pt', mode: 'test', status: 'pending', amount: 1000,
      customer: { name: 'Ana' }, tracking: stored, created_at: created, updated_at: created,
    };
    await model.create(doc);
    return (await model.findById(doc._id).lean<PaymentDoc>()) as PaymentDoc;
  };
  const read = async (id: string) => (await model.findById(id).lean<PaymentDoc>()) as PaymentDoc;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('paytrack');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['payment.*'] }, async (event) => void published.push(event));
    model = registerPaymentModel(db);
    store = new PaymentStore(model, registerFailedCreationModel(db), new OutboxRelay({ bus, logger }), new PaymentLinks('http://pay.example.com', 'http://api.example.com'));
    await ensureIndexes(db);
    tracking = new PageTracking(store);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });

  it('fills only the absent keys: values sent at creation win; no event, updated_at kept', async () => {
    const payment = await insert({ utm_source: 'instagram' });
    const answer = await tracking.record(payment._id, { utm_source: 'facebook', utm_campaign: 'bf', fbclid: 'ABC' });
    expect(answer).toEqual({ utm_source: 'instagram', utm_campaign: 'bf', fbclid: 'ABC' });
    const stored = await read(payment._id);
    expect(stored.tracking).toEqual(answer);
    expect(stored.updated_at.getTime()).toBe(payment.updated_at.getTime());
    expect(stored.events).toEqual(payment.events);
    expect(stored.version).toBe((payment.version ?? 0) + 1);

    // A later visit bringing other values changes nothing; one bringing a new key adds only it.
    expect(await tracking.record(payment._id, { utm_campaign: 'other', fbclid: 'XYZ' })).toEqual(answer);
    expect((await read(payment._id)).version).toBe((payment.version ?? 0) + 1);
    expect(await tracking.record(payment._id, { utm_campaign: 'other', gclid: 'G1' })).toEqual({ ...answer, gclid: 'G1' });
    // Nothing to fill: answers the stored tracking as it is.
    expect(await tracking.record(payment._id, {})).toEqual({ ...answer, gclid: 'G1' });
  });

  it('racing visits: the first value of each key wins, every answer agrees, no key is lost', async () => {
    const payment = await insert({ utm_source: 'instagram' });
    // 30 visits at once: each brings its own utm_campaign, and one click id of three kinds.
    const clickKeys = ['fbclid', 'gclid', 'ttclid'] as const;
    const visits = Array.from({ length: 30 }, (_, i) => ({ utm_source: `s${i}`, utm_campaign: `c${i}`, [clickKeys[i % 3]!]: `id${i}` }));
    const answers = await Promise.all(visits.map((visit) => tracking.record(payment._id, visit)));

    const stored = (await read(payment._id)).tracking;
    expect(stored.utm_source).toBe('instagram');
    expect(stored.utm_campaign).toMatch(/^c\d+$/);
    for (const key of clickKeys) expect(stored[key]).toMatch(/^id\d+$/);
    expect(Object.keys(stored).sort()).toEqual(['fbclid', 'gclid', 'ttclid', 'utm_campaign', 'utm_source']);
    // Whoever won a key, no visit was told another value for it: nothing was written over.
    for (const answer of answers) {
      expect(answer.utm_campaign).toBe(stored.utm_campaign);
      for (const key of clickKeys) if (answer[key] !== undefined) expect(answer[key]).toBe(stored[key]);
    }
    // The winner of utm_campaign brought its own click id too, in the same write.
    const winner = Number(stored.utm_campaign!.slice(1));
    const winnerKey = clickKeys[winner % 3]!;
    expect(stored[winnerKey]).toBe(`id${winner}`);
  });

  it('a transition computed from a read before the visit carries the merged tracking in its event', async () => {
    const payment = await insert({ utm_source: 'instagram' });
    await tracking.record(payment._id, { utm_campaign: 'bf' });
    const moved = await store.transition(payment, 'canceled', 'payment.canceled');
    expect(moved?.tracking).toEqual({ utm_source: 'instagram', utm_campaign: 'bf' });
    await waitFor(() => published.some((event) => event.type === 'payment.canceled' && (event.data.object as { id: string }).id === payment._id));
    const event = published.find((e) => e.type === 'payment.canceled' && (e.data.object as { id: string }).id === payment._id)!;
    expect((event.data.object as { tracking: unknown }).tracking).toEqual({ utm_source: 'instagram', utm_campaign: 'bf' });
  });

  it('refuses unknown keys and values over 500 characters (param tracking), writing nothing', async () => {
    const payment = await insert();
    for (const bad of <Array<Record<string, string>>>[{ utm_id: 'x' }, { utm_source: 'a'.repeat(501) }, { utm_campaign: 'bf', __proto__x: 'y' }]) {
      const error = await tracking.record(payment._id, bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'parameter_invalid', param: 'tracking' });
    }
    expect((await read(payment._id)).tracking).toEqual({});
    // 500 characters exactly is allowed; empty values bring nothing.
    expect(await tracking.record(payment._id, { utm_source: 'a'.repeat(500), utm_medium: '' })).toEqual({ utm_source: 'a'.repeat(500) });
  });

  it('a link opened after the sale ended (paid, refunded, expired) adds nothing', async () => {
    for (const status of ['succeeded', 'refunded', 'canceled', 'failed']) {
      const payment = await insert({ utm_source: 'instagram' });
      await model.updateOne({ _id: payment._id }, { $set: { status } });
      expect(await tracking.record(payment._id, { utm_source: 'facebook', utm_campaign: 'late' })).toEqual({ utm_source: 'instagram' });
      expect((await read(payment._id)).tracking).toEqual({ utm_source: 'instagram' });
    }
  });

  it('an unknown payment is not_found', async () => {
    await expect(tracking.record('pay_missing', { utm_source: 'x' })).rejects.toMatchObject({ code: 'not_found', param: 'id' });
  });
});

async function waitFor(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

import { EventBus, connectDatabase, ensureIndexes, newId, type EventEnvelope } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerPaymentModel, type PaymentModel } from '../db/payment.model';
import { AnalyticsLedger, OP_WINDOW } from './analytics-ledger';
import { registerAnalyticsModels, type BucketModel, type ContributionModel } from './analytics.model';
import { startAnalyticsConsumer } from './analytics.consumer';
import { bucketId, contributionOf, type PaymentState } from './figures';
import { AnalyticsOverview } from './overview';
import { AnalyticsRebuild } from './rebuild';

jest.setTimeout(120_000);
const logger = pino({ level: 'silent' });

const base = Date.parse('2026-11-10T15:00:00.000Z');
const at = (ms: number) => new Date(base + ms);

function state(id: string, over: Partial<PaymentState> = {}): PaymentState {
  return {
    id,
    merchant_id: 'acct_an',
    mode: 'test',
    status: 'pending',
    amount: 10_000,
    amount_refunded: 0,
    fee: 0,
    method: 'pix',
    provider: 'efi',
    provider_account_id: 'pa_efi',
    created_at: at(0),
    updated_at: at(0),
    ...over,
  };
}

/** The event payments would publish for this state (data.object is the public payment). */
function eventOf(s: PaymentState, type = `payment.${s.status === 'requires_method' ? 'created' : s.status}`): EventEnvelope {
  return {
    id: newId('event'),
    type,
    created: Math.floor(s.updated_at.getTime() / 1000),
    merchant_id: s.merchant_id,
    mode: s.mode,
    source: null,
    data: {
      object: {
        id: s.id,
        object: 'payment',
        status: s.status,
        amount: s.amount,
        amount_refunded: s.amount_refunded,
        fee: s.fee,
        method: s.method || null,
        provider: s.provider || null,
        provider_account_id: s.provider_account_id || null,
        currency: 'BRL',
        created_at: s.created_at.toISOString(),
        updated_at: s.updated_at.toISOString(),
      },
    },
  };
}

describe('analytics buckets against the real store and RabbitMQ', () => {
  let db: Connection;
  let bus: EventBus;
  let buckets: BucketModel;
  let contributions: ContributionModel;
  let payments: PaymentModel;
  let ledger: AnalyticsLedger;
  let overview: AnalyticsOverview;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('anl');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    ({ buckets, contributions } = registerAnalyticsModels(db));
    payments = registerPaymentModel(db);
    await ensureIndexes(db);
    ledger = new AnalyticsLedger({ buckets, contributions });
    overview = new AnalyticsOverview(buckets);
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await startAnalyticsConsumer(bus, ledger, logger);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });

  /** Waits until every payment's contribution reflects the given updated_at. */
  async function settled(expected: Record<string, Date>): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const docs = await contributions.find({ _id: { $in: Object.keys(expected) } }).lean();
      const done = Object.entries(expected).every(([id, when]) => docs.some((d) => d._id === id && !d.pending && d.version?.at === when.getTime()));
      if (done) return;
      if (Date.now() > deadline) throw new Error(`contributions not settled: ${JSON.stringify(docs.map((d) => [d._id, d.version]))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Lets the queue drain events that must change nothing (a stale event has nothing to wait for). */
  const drain = () => new Promise((r) => setTimeout(r, 600));

  it("a payment's life through the bus, every event delivered twice and some out of order, counts once", async () => {
    const merchant = 'acct_life';
    const created = state('pay_life', { merchant_id: merchant, status: 'requires_method', method: '', provider: '', provider_account_id: '' });
    const pending = { ...created, status: 'pending' as const, method: 'pix', provider: 'efi', provider_account_id: 'pa_efi', updated_at: at(1_000) };
    const paid = { ...pending, status: 'succeeded' as const, fee: 99, updated_at: at(2_000) };
    const refunded = { ...paid, status: 'partially_refunded' as const, amount_refunded: 2_500, updated_at: at(3_000) };
    // Newest first, then everything again: the older ones must be skipped.
    for (const s of [paid, created, refunded, pending, refunded, paid, created, pending]) await bus.publish(eventOf(s));
    await settled({ pay_life: refunded.updated_at });
    await drain();

    const result = await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-09', '2026-11-11');
    expect(result.timezone).toBe('America/Sao_Paulo');
    expect(result.totals).toEqual({ gross: 10_000, refunded: 2_500, fees: 99, net: 7_401, created: 1, approved: 1, refused: 0, canceled: 0, pending: 0, approval_rate: 1 });
    expect(result.by_provider).toHaveLength(1);
    expect(result.by_provider[0]).toMatchObject({ provider_account_id: 'pa_efi', provider: 'efi', figures: { gross: 10_000, created: 1 } });
    expect(result.by_provider[0]?.by_method.map((m) => m.method)).toEqual(['pix']);
    expect(result.by_method.map((m) => [m.method, m.figures?.created])).toEqual([['pix', 1]]);
    expect(result.daily.map((d) => [d.date, d.figures?.created])).toEqual([
      ['2026-11-09', 0],
      ['2026-11-10', 1],
      ['2026-11-11', 0],
    ]);
    // The "none" bucket it was created in holds nothing (the paid state came first: it was never counted there).
    const none = await buckets.findById(bucketId({ merchant_id: merchant, mode: 'test', day: '2026-11-10', provider_account_id: '', method: 'none' })).lean();
    expect(none?.created ?? 0).toBe(0);
    expect(await contributions.findById('pay_life').lean()).toMatchObject({ pending: null, applied: { bucket: { provider_account_id: 'pa_efi', method: 'pix' } } });
  });

  it('resumes an operation a crash left after its first step, and after its second, without applying it twice', async () => {
    const merchant = 'acct_crash';
    const first = state('pay_crash', { merchant_id: merchant });
    expect(await ledger.record(first)).toBe('applied');

    // Crash after step 1: the operation is written, no bucket touched.
    const paid = { ...first, status: 'succeeded' as const, fee: 100, updated_at: at(1_000) };
    const prepared = await ledger.prepare(paid);
    expect(prepared.kind).toBe('op');
    // A redelivery of the same event resumes it.
    expect(await ledger.record(paid)).toBe('stale');
    let totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toMatchObject({ created: 1, approved: 1, pending: 0, gross: 10_000, fees: 100 });

    // Crash after step 2: the bucket has the delta, the contribution does not know yet.
    const refunded = { ...paid, status: 'refunded' as const, amount_refunded: 10_000, updated_at: at(2_000) };
    const op = await ledger.prepare(refunded);
    if (op.kind !== 'op') throw new Error(`expected an operation, got ${op.kind}`);
    await ledger.applyToBuckets(op.op);
    await ledger.applyToBuckets(op.op); // even a second try of the step lands once
    expect(await ledger.record(refunded)).toBe('stale');
    totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toMatchObject({ created: 1, approved: 1, gross: 10_000, refunded: 10_000, fees: 100, net: -100 });

    // A pending operation is resumed before a newer state is applied.
    const op2 = await ledger.prepare({ ...refunded, updated_at: at(2_500), fee: 120 });
    expect(op2.kind).toBe('op');
    expect(await ledger.record({ ...refunded, updated_at: at(3_000), fee: 130 })).toBe('applied');
    totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toMatchObject({ created: 1, fees: 130 });
    const contribution = await contributions.findById('pay_crash').lean();
    expect(contribution?.pending).toBeNull();
    expect(contribution?.version?.at).toBe(at(3_000).getTime());
  });

  it('a payment.created tried as the first contribution: one insert for a new payment, and the normal path when it is not the first', async () => {
    const merchant = 'acct_first';
    const created = state('pay_first', { merchant_id: merchant });
    expect(await ledger.record(created, { likelyFirst: true })).toBe('applied');
    const paid = { ...created, status: 'succeeded' as const, fee: 90, updated_at: at(1_000) };
    expect(await ledger.record(paid)).toBe('applied');
    // The creation again (a redelivery, or late): refused insert, then read: older than applied.
    expect(await ledger.record(created, { likelyFirst: true })).toBe('stale');
    // Left pending by a crash: a late creation resumes that operation instead of skipping it.
    const refunded = { ...paid, status: 'refunded' as const, amount_refunded: 10_000, updated_at: at(2_000) };
    expect((await ledger.prepare(refunded)).kind).toBe('op');
    expect(await ledger.record(created, { likelyFirst: true })).toBe('stale');
    const totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toMatchObject({ created: 1, approved: 1, gross: 10_000, refunded: 10_000, fees: 90 });
    expect((await contributions.findById('pay_first').lean())?.pending).toBeNull();
  });

  it('moves a payment between buckets on failover and a method chosen later, and on a new São Paulo day boundary keeps its creation day', async () => {
    const merchant = 'acct_move';
    // 00:30 in São Paulo on the 11th is 03:30 UTC: the 11th, not the 10th.
    const createdAt = new Date('2026-11-11T03:30:00.000Z');
    const s0 = state('pay_move', { merchant_id: merchant, status: 'requires_method', method: '', provider: '', provider_account_id: '', created_at: createdAt, updated_at: createdAt });
    const s1 = { ...s0, status: 'pending' as const, method: 'boleto', provider: 'asaas', provider_account_id: 'pa_asaas', updated_at: new Date(createdAt.getTime() + 1_000) };
    // Failover moved it to another account, later, paid there (and paid on the next day: still counted on the 11th).
    const s2 = { ...s1, status: 'succeeded' as const, provider: 'pagarme', provider_account_id: 'pa_pagarme', fee: 350, updated_at: new Date('2026-11-12T12:00:00.000Z') };
    for (const s of [s0, s1, s2]) await ledger.record(s);
    const result = await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-12');
    expect(result.totals).toMatchObject({ created: 1, approved: 1, gross: 10_000, fees: 350 });
    expect(result.by_provider).toEqual([
      expect.objectContaining({ provider_account_id: 'pa_pagarme', provider: 'pagarme', by_method: [expect.objectContaining({ method: 'boleto' })] }),
    ]);
    // The buckets it passed through are back to zero.
    for (const [account, method] of [['', 'none'], ['pa_asaas', 'boleto']] as const) {
      const old = await buckets.findById(bucketId({ merchant_id: merchant, mode: 'test', day: '2026-11-11', provider_account_id: account, method })).lean();
      expect(old).toMatchObject({ created: 0, pending: 0, gross: 0 });
    }
    expect(result.daily.map((d) => d.figures?.created)).toEqual([0, 1, 0]);
  });

  it('many payments into one bucket at once, each event twice, through the bus: exact totals', async () => {
    const merchant = 'acct_many';
    const count = 120;
    const finals: Record<string, Date> = {};
    const events: EventEnvelope[] = [];
    for (let i = 0; i < count; i += 1) {
      const created = state(`pay_many_${i}`, { merchant_id: merchant, amount: 1_000 + i });
      const outcome =
        i % 4 === 0
          ? { ...created, status: 'failed' as const, updated_at: at(500) }
          : i % 4 === 1
            ? { ...created, status: 'canceled' as const, updated_at: at(500) }
            : { ...created, status: 'succeeded' as const, fee: 10, updated_at: at(500) };
      finals[created.id] = outcome.updated_at;
      events.push(eventOf(created), eventOf(outcome), eventOf(outcome), eventOf(created));
    }
    // Also straight to the ledger at the same time as the consumer handles the same events.
    await Promise.all([
      ...events.map((e) => bus.publish(e)),
      ...Object.keys(finals).map((id, i) => ledger.record(state(id, { merchant_id: merchant, amount: 1_000 + i }))),
    ]);
    await settled(finals);
    await drain();
    const { totals, by_provider } = await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10');
    const paid = Array.from({ length: count }, (_, i) => i).filter((i) => i % 4 >= 2);
    const gross = paid.reduce((sum, i) => sum + 1_000 + i, 0);
    expect(totals).toEqual({
      gross,
      refunded: 0,
      fees: paid.length * 10,
      net: gross - paid.length * 10,
      created: count,
      approved: paid.length,
      refused: count / 4,
      canceled: count / 4,
      pending: 0,
      approval_rate: paid.length / (paid.length + count / 4),
    });
    expect(by_provider).toHaveLength(1);
  });

  it("answers only the caller's merchant and mode, and refuses bad ranges", async () => {
    const other = await overview.get({ merchantId: 'acct_nobody', mode: 'test' }, '2026-11-10', '2026-11-10');
    expect(other.totals).toMatchObject({ created: 0 });
    expect(other.totals).not.toHaveProperty('approval_rate', expect.anything());
    const live = await overview.get({ merchantId: 'acct_life', mode: 'live' }, '2026-11-10', '2026-11-10');
    expect(live.totals?.created).toBe(0);
    await expect(overview.get({ merchantId: 'acct_life', mode: 'test' }, '2026-11-11', '2026-11-10')).rejects.toMatchObject({ code: 'parameter_invalid', param: 'start' });
  });

  it('rebuild recomputes contributions and buckets from the payments; older events after it are skipped, newer ones applied', async () => {
    const merchant = 'acct_rebuild';
    const doc = (id: string, over: Record<string, unknown>) => ({
      _id: id,
      merchant_id: merchant,
      mode: 'test',
      status: 'succeeded',
      amount: 5_000,
      amount_refunded: 0,
      fee: 50,
      method: 'pix',
      provider: 'woovi',
      provider_account_id: 'pa_woovi',
      created_at: at(0),
      updated_at: at(10_000),
      ...over,
    });
    await payments.collection.insertMany([
      doc('pay_rb_1', {}),
      doc('pay_rb_2', { status: 'refunded', amount_refunded: 5_000 }),
      doc('pay_rb_3', { status: 'failed', fee: 0 }),
      doc('pay_rb_4', { status: 'requires_method', method: '', provider: '', provider_account_id: '', fee: 0 }),
      // Another merchant: untouched by a --merchant rebuild.
      { ...doc('pay_rb_other', {}), merchant_id: 'acct_rebuild_other' },
    ] as never[]);
    // The buckets knew only an old state of one payment, and one bucket drifted.
    await ledger.record(state('pay_rb_1', { merchant_id: merchant, provider: 'woovi', provider_account_id: 'pa_woovi', amount: 5_000, updated_at: at(1_000) }));
    await buckets.updateOne({ _id: bucketId(contributionOf(state('x', { merchant_id: merchant, provider: 'woovi', provider_account_id: 'pa_woovi' })).bucket) }, { $inc: { gross: 777, created: 3 } });

    const result = await new AnalyticsRebuild(payments, { buckets, contributions }, ledger, logger).run({ merchantId: merchant });
    expect(result).toMatchObject({ payments: 4, contributions_rewritten: 4, buckets_unsettled: 0 });
    const expected = { gross: 10_000, refunded: 5_000, fees: 100, net: 4_900, created: 4, approved: 2, refused: 1, canceled: 0, pending: 1 };
    let totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toEqual({ ...expected, approval_rate: 2 / 3 });
    expect(await contributions.findById('pay_rb_other').lean()).toBeNull();

    // An event older than what the rebuild read changes nothing; a newer one moves the buckets.
    await bus.publish(eventOf(state('pay_rb_3', { merchant_id: merchant, provider: 'woovi', provider_account_id: 'pa_woovi', amount: 5_000, updated_at: at(5_000) })));
    const failedLater = state('pay_rb_3', { merchant_id: merchant, status: 'failed', provider: 'woovi', provider_account_id: 'pa_woovi', amount: 5_000, updated_at: at(10_000) });
    await bus.publish(eventOf(failedLater));
    const paidLater = state('pay_rb_4', { merchant_id: merchant, status: 'succeeded', provider: 'woovi', provider_account_id: 'pa_woovi', amount: 5_000, fee: 50, updated_at: at(20_000) });
    await bus.publish(eventOf(paidLater));
    // Both newer events applied (the consumer may take them in either order), then the stale one had its time too.
    await settled({ pay_rb_3: failedLater.updated_at, pay_rb_4: paidLater.updated_at });
    await drain();
    totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toEqual({ ...expected, gross: 15_000, fees: 150, net: 9_850, approved: 3, pending: 0, approval_rate: 3 / 4 });

    // Run again: same figures (it is idempotent).
    await new AnalyticsRebuild(payments, { buckets, contributions }, ledger, logger).run({ merchantId: merchant });
    // The payments collection still says pay_rb_4 awaits a method, but its contribution is newer: kept.
    totals = (await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10')).totals;
    expect(totals).toMatchObject({ gross: 15_000, approved: 3, pending: 0 });
  });

  it('gives the figures of the example in docs/analytics.md, live payments apart', async () => {
    const merchant = 'acct_doc';
    const s = (id: string, over: Partial<PaymentState>) => state(id, { merchant_id: merchant, updated_at: at(9_000), ...over });
    await ledger.record(s('pay_doc_a', { amount: 10_000, status: 'partially_refunded', amount_refunded: 2_500, fee: 99 }));
    await ledger.record(s('pay_doc_b', { amount: 5_000, status: 'failed' }));
    await ledger.record(s('pay_doc_c', { amount: 7_000, status: 'canceled' }));
    await ledger.record(s('pay_doc_d', { amount: 3_000, status: 'requires_method', method: '', provider: '', provider_account_id: '' }));
    await ledger.record(s('pay_doc_live', { mode: 'live', status: 'succeeded' }));
    const result = await overview.get({ merchantId: merchant, mode: 'test' }, '2026-11-10', '2026-11-10');
    expect(result.totals).toEqual({ created: 4, approved: 1, refused: 1, canceled: 1, pending: 1, gross: 10_000, refunded: 2_500, fees: 99, net: 7_401, approval_rate: 0.5 });
    expect(result.by_provider.map((p) => [p.provider_account_id, p.provider, p.figures?.created])).toEqual([
      ['pa_efi', 'efi', 3],
      ['', '', 1],
    ]);
    expect(result.by_method.map((m) => [m.method, m.figures?.created])).toEqual([
      ['none', 1],
      ['pix', 3],
    ]);
    const live = await overview.get({ merchantId: merchant, mode: 'live' }, '2026-11-10', '2026-11-10');
    expect(live.totals).toMatchObject({ created: 1, approved: 1, gross: 10_000 });
  });

  it('remembers a bounded window of operation ids per bucket', async () => {
    const key = contributionOf(state('w', { merchant_id: 'acct_window' })).bucket;
    for (let i = 0; i < 30; i += 1) await ledger.record(state(`pay_w_${i}`, { merchant_id: 'acct_window' }));
    const bucket = await buckets.findById(bucketId(key)).lean();
    expect(bucket?.created).toBe(30);
    expect(bucket?.ops).toHaveLength(Math.min(30, OP_WINDOW));
    expect(bucket?.ops.at(-1)).toBe('pay_w_29:1');
  });
});

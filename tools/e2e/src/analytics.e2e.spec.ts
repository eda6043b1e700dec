import { randomBytes, randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { saoPauloDate } from '@orquestra/platform';
import { api, eventually, sdk } from './support/api';
import { connectEmulatorAccount, newMerchant } from './support/merchant';
import { stackInfo } from './support/stack-info';

/**
 * Analytics through the whole stack (issue 18, docs/analytics.md): a merchant of its own with an
 * Asaas account (Pix) and a Stripe account (card) makes payments of every outcome — Pix paid,
 * paid then partly refunded, canceled and left open; cards approved, approved then fully refunded,
 * and declined. GET /v1/analytics/overview then shows exactly those payments, in total, by
 * provider account and method, by method and by day. An event the buckets already consumed,
 * published again with the same id, leaves every figure as it was. Bad ranges are 400 with param.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;

let key = '';
let restrictedKey = '';
let merchantId = '';
let asaasAccount = '';
let stripeAccount = '';
/** São Paulo days from this suite's start to now (both included). */
let range: { start: string; end: string };
/** Every payment this suite made, in its final state. */
let made: Json[] = [];
let partlyRefunded: Json;

const CUSTOMER = { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' };
const FIGURES = ['gross', 'refunded', 'fees', 'net', 'created', 'approved', 'refused', 'canceled', 'pending'] as const;
const APPROVED = ['succeeded', 'partially_refunded', 'refunded'];

async function create(body: Json): Promise<Json> {
  const created = await api('POST', '/v1/payments', { key, idempotencyKey: randomUUID(), body: { description: 'Pedido analisado', customer: CUSTOMER, ...body } });
  expect(created.status).toBe(201);
  return created.body;
}

async function paymentWhen(id: string, what: string, done: (payment: Json) => boolean): Promise<Json> {
  return eventually(
    async () => {
      const payment = (await api('GET', `/v1/payments/${id}`, { key })).body;
      return done(payment) ? payment : undefined;
    },
    `payment ${id}: ${what}`,
    30_000,
  );
}

async function paidPix(amount: number): Promise<Json> {
  const payment = await create({ method: 'pix', amount, provider_account_id: asaasAccount });
  expect((await api('POST', `/v1/payments/${payment.id}/simulate`, { key })).status).toBe(200);
  return paymentWhen(payment.id, 'succeeded', (p) => p.status === 'succeeded');
}

async function refund(payment: Json, amount: number, status: string): Promise<Json> {
  const answer = await api('POST', `/v1/payments/${payment.id}/refund`, { key, idempotencyKey: randomUUID(), body: { amount } });
  expect(answer.status).toBe(201);
  return paymentWhen(payment.id, `${status} with ${amount} refunded`, (p) => p.status === status && p.amount_refunded === amount);
}

/** The figures docs/analytics.md defines, summed over `payments` (net and the approval rate derived). */
function figuresOf(payments: Json[]): Json {
  const sum = { gross: 0, refunded: 0, fees: 0, net: 0, created: 0, approved: 0, refused: 0, canceled: 0, pending: 0 };
  for (const payment of payments) {
    const approved = APPROVED.includes(payment.status);
    sum.created += 1;
    if (approved) {
      sum.approved += 1;
      sum.gross += payment.amount;
      sum.fees += payment.fee ?? 0;
    }
    sum.refunded += payment.amount_refunded;
    if (payment.status === 'failed') sum.refused += 1;
    if (payment.status === 'canceled') sum.canceled += 1;
    if (['requires_method', 'pending', 'processing'].includes(payment.status)) sum.pending += 1;
  }
  sum.net = sum.gross - sum.refunded - sum.fees;
  const decided = sum.approved + sum.refused;
  return { ...sum, approval_rate: decided === 0 ? null : sum.approved / decided };
}

const figuresIn = (line: Json): Json => Object.fromEntries([...FIGURES, 'approval_rate'].map((field) => [field, line[field]]));

async function overview(query = `start=${range.start}&end=${range.end}`): Promise<Json> {
  const answer = await api('GET', `/v1/analytics/overview?${query}`, { key });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Waits until the overview's totals are `expected` (the buckets follow the events asynchronously). */
async function overviewWith(expected: Json): Promise<Json> {
  let last: Json = {};
  try {
    return await eventually(
      async () => {
        last = await overview();
        return JSON.stringify(figuresIn(last.totals)) === JSON.stringify(expected) ? last : undefined;
      },
      'the overview to show the payments made',
      30_000,
    );
  } catch (error) {
    // Show what differs, not only that it timed out.
    expect(figuresIn(last.totals ?? {})).toEqual(expected);
    throw error;
  }
}

beforeAll(async () => {
  const startedAt = new Date();
  ({ key, restrictedKey, merchantId } = await newMerchant('Loja Analytics'));
  asaasAccount = await connectEmulatorAccount(key, 'asaas', 'Asaas Pix', { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` }, 10);
  stripeAccount = await connectEmulatorAccount(key, 'stripe', 'Stripe cartões', { secret_key: `sk_test_${randomBytes(12).toString('hex')}` }, 5);

  // Pix at Asaas: paid; paid then partly refunded; canceled; left open.
  const paid = await paidPix(2_990);
  partlyRefunded = await refund(await paidPix(4_590), 1_000, 'partially_refunded');
  const canceled = await create({ method: 'pix', amount: 1_500, provider_account_id: asaasAccount });
  expect((await api('POST', `/v1/payments/${canceled.id}/cancel`, { key })).status).toBe(200);
  const open = await create({ method: 'pix', amount: 2_000, provider_account_id: asaasAccount });

  // Cards at Stripe: approved; approved then fully refunded; declined.
  const approved = await create({ method: 'card', amount: 15_990, provider_account_id: stripeAccount, card: { token: 'pm_card_visa' } });
  expect(approved.status).toBe('succeeded');
  const toRefund = await create({ method: 'card', amount: 5_000, provider_account_id: stripeAccount, card: { token: 'pm_card_visa' } });
  expect(toRefund.status).toBe('succeeded');
  const fullyRefunded = await refund(toRefund, 5_000, 'refunded');
  const declined = await create({ method: 'card', amount: 7_000, provider_account_id: stripeAccount, card: { token: 'pm_card_chargeDeclined' } });
  expect(declined.status).toBe('failed');

  made = await Promise.all(
    [paid, partlyRefunded, canceled, open, approved, fullyRefunded, declined].map(async (payment) => (await api('GET', `/v1/payments/${payment.id}`, { key })).body),
  );
  expect(made.map((payment) => payment.status)).toEqual(['succeeded', 'partially_refunded', 'canceled', 'pending', 'succeeded', 'refunded', 'failed']);
  range = { start: saoPauloDate(startedAt), end: saoPauloDate(new Date()) };
});

describe('GET /v1/analytics/overview', () => {
  it('totals are exactly the payments made: volume, refunds, fees, counts and approval rate', async () => {
    const expected = figuresOf(made);
    // What was made, spelled out (the fees are the providers' own, read from the payments).
    expect(expected).toMatchObject({
      gross: 2_990 + 4_590 + 15_990 + 5_000,
      refunded: 1_000 + 5_000,
      created: 7,
      approved: 4,
      refused: 1,
      canceled: 1,
      pending: 1,
      approval_rate: 4 / 5,
    });
    expect(expected.fees).toBeGreaterThan(0);
    const body = await overviewWith(expected);
    expect(body).toMatchObject({ object: 'analytics_overview', mode: 'test', start: range.start, end: range.end, timezone: 'America/Sao_Paulo' });
  });

  it('by provider account and method, by method and by day, the same payments split', async () => {
    const body = await overviewWith(figuresOf(made));
    const asaas = made.filter((payment) => payment.provider_account_id === asaasAccount);
    const stripe = made.filter((payment) => payment.provider_account_id === stripeAccount);
    expect([asaas.length, stripe.length]).toEqual([4, 3]);
    const byAccount = (body.by_provider as Json[]).map((line) => ({ ...line })).sort((a, b) => String(a.provider).localeCompare(String(b.provider)));
    expect(byAccount).toEqual([
      { provider_account_id: asaasAccount, provider: 'asaas', ...figuresOf(asaas), by_method: [{ method: 'pix', ...figuresOf(asaas) }] },
      { provider_account_id: stripeAccount, provider: 'stripe', ...figuresOf(stripe), by_method: [{ method: 'card', ...figuresOf(stripe) }] },
    ]);
    const byMethod = [...(body.by_method as Json[])].sort((a, b) => String(a.method).localeCompare(String(b.method)));
    expect(byMethod).toEqual([
      { method: 'card', ...figuresOf(made.filter((payment) => payment.method === 'card')) },
      { method: 'pix', ...figuresOf(made.filter((payment) => payment.method === 'pix')) },
    ]);
    // Every day of the range, in order; each payment on the São Paulo day it was created.
    const days: string[] = [];
    for (let day = range.start; day <= range.end; day = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) days.push(day);
    expect((body.daily as Json[]).map((line) => line.date)).toEqual(days);
    for (const line of body.daily as Json[]) {
      expect({ date: line.date, ...figuresIn(line) }).toEqual({ date: line.date, ...figuresOf(made.filter((payment) => saoPauloDate(new Date(payment.created_at)) === line.date)) });
    }
    // The SDK reads the same document.
    expect(await sdk(key).analytics.overview(range)).toEqual(body);
  });

  it('an event already consumed, published again with the same id, changes nothing', async () => {
    const expected = figuresOf(made);
    await overviewWith(expected);
    // The partly refunded Pix's events: its payment.succeeded (an older state) and its latest one.
    const listed = await api('GET', `/v1/events?payment_id=${partlyRefunded.id}&limit=100`, { key });
    expect(listed.status).toBe(200);
    const events = (listed.body.data as Json[]).filter((event) => event.type.startsWith('payment.'));
    const succeeded = events.find((event) => event.type === 'payment.succeeded');
    const latest = [...events].sort((a, b) => b.created - a.created || Date.parse(b.data.object.updated_at) - Date.parse(a.data.object.updated_at))[0];
    expect(succeeded).toBeDefined();
    expect(latest?.data.object).toMatchObject({ status: 'partially_refunded', amount_refunded: 1_000 });

    const { amqpUrl, dbPrefix } = stackInfo();
    const exchange = `${dbPrefix}events`;
    const connection = await amqp.connect(amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      for (const event of [succeeded!, latest!]) {
        // The envelope the payments service published (libs/platform EventEnvelope), same id.
        const envelope = { id: event.id, type: event.type, created: event.created, merchant_id: merchantId, mode: 'test', source: null, data: event.data };
        channel.publish(exchange, event.type, Buffer.from(JSON.stringify(envelope)), {
          persistent: true,
          contentType: 'application/json',
          messageId: event.id,
          type: event.type,
          timestamp: event.created,
        });
      }
      await channel.waitForConfirms();

      // A payment made after the replay is a marker: once the overview shows it and the buckets'
      // queue is empty, the replayed events (queued before it) have been consumed too.
      const marker = await create({ method: 'pix', amount: 1_234, provider_account_id: asaasAccount });
      const withMarker = figuresOf([...made, marker]);
      await overviewWith(withMarker);
      const queue = `${exchange}.payments.analytics.quorum`; // EventBus.queueName: consumers' queues are quorum queues
      await eventually(async () => ((await channel.checkQueue(queue)).messageCount === 0 ? true : undefined), `${queue} to drain`, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const after = await overview();
      expect(figuresIn(after.totals)).toEqual(withMarker);
      // Nothing but the marker moved: the refunded Pix still counts once, with its refund once.
      expect(withMarker).toEqual({ ...expected, created: expected.created + 1, pending: expected.pending + 1 });
      made.push(marker);
    } finally {
      await connection.close();
    }
  });

  it('days counts back from today in São Paulo; a bad range is 400 with param; a restricted key is 403', async () => {
    const lastWeek = await overview('days=7');
    const today = saoPauloDate(new Date());
    expect(lastWeek.end).toBe(today);
    expect(lastWeek.daily).toHaveLength(7);
    expect(figuresIn(lastWeek.totals)).toEqual(figuresOf(made.filter((payment) => saoPauloDate(new Date(payment.created_at)) >= lastWeek.start)));

    const cases: Array<[string, string, string]> = [
      ['days=0', 'parameter_invalid', 'days'],
      ['days=367', 'parameter_invalid', 'days'],
      ['start=2026-11-10&end=2026-11-01', 'parameter_invalid', 'start'],
      ['start=2025-01-01&end=2026-06-30', 'parameter_invalid', 'end'],
      ['start=2026-13-01&end=2026-12-31', 'parameter_invalid', 'start'],
      ['start=2026-11-01', 'parameter_missing', 'end'],
      ['days=7&start=2026-11-01&end=2026-11-07', 'parameter_invalid', 'days'],
    ];
    for (const [query, code, param] of cases) {
      const answer = await api('GET', `/v1/analytics/overview?${query}`, { key });
      expect({ query, status: answer.status, code: answer.body.error?.code, param: answer.body.error?.param }).toEqual({ query, status: 400, code, param });
      expect(answer.body.error.message).toMatch(/[ãçéí]|Informe|Use|Divida/);
    }
    const restricted = await api('GET', '/v1/analytics/overview', { key: restrictedKey });
    expect([restricted.status, restricted.body.error?.code]).toEqual([403, 'restricted_key']);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Stripe card chargebacks through the whole stack: a dispute opened at Stripe (the emulator) on a
 * succeeded card payment arrives by its signed `charge.dispute.*` webhooks, evidence goes to Stripe
 * (`POST /v1/disputes/{id}`), and Stripe's decision closes it. Runs on the card merchant with its
 * own Stripe account at priority 97 and every payment naming that account, so other suites'
 * routing is unchanged.
 */
jest.setTimeout(60_000);

type Json = Record<string, any>;

const key = () => stackInfo().cardsMerchant.testKey;

async function http(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const control = (method: string, path: string, body?: unknown) => http(`${stackInfo().controlUrls.stripe}${path}`, method, {}, body);
/** Stripe's own API, as the account owner would call it. */
const stripeApi = (secret: string, path: string) => http(`http://127.0.0.1:${stackInfo().ports['stripeApi']}/v1${path}`, 'GET', { authorization: `Bearer ${secret}` });

const eventsOfDispute = async (disputeId: string) =>
  ((await api('GET', '/v1/events?limit=100', { key: key() })).body.data as Json[]).filter((e) => e.data?.object?.id === disputeId).map((e) => e.type as string);

async function eventsInclude(disputeId: string, type: string): Promise<void> {
  await eventually(async () => ((await eventsOfDispute(disputeId)).includes(type) ? true : undefined), `${type} of ${disputeId}`, 15_000);
}

async function statusOf(id: string, status: string): Promise<Json> {
  return eventually(
    async () => {
      const current = await api('GET', `/v1/disputes/${id}`, { key: key() });
      return current.body.status === status ? current.body : undefined;
    },
    `dispute ${id} to become ${status}`,
    20_000,
  );
}

let stripe: { id: string; secret: string };

async function paidCard(amount: number): Promise<Json> {
  const created = await api('POST', '/v1/payments', {
    key: key(),
    idempotencyKey: randomUUID(),
    body: {
      method: 'card',
      amount,
      description: 'Pedido contestado',
      customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' },
      provider_account_id: stripe.id,
      card: { token: 'pm_card_visa' },
    },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: 'succeeded', provider_account_id: stripe.id });
  return created.body;
}

/** The dispute Stripe opened on `payment`, once the webhook made it ours. */
async function ourDispute(paymentId: string): Promise<Json> {
  return eventually(
    async () => {
      const open = (await api('GET', '/v1/disputes?status=open', { key: key() })).body.data as Json[];
      return open.find((d) => d.payment_id === paymentId);
    },
    `the Stripe dispute of ${paymentId} in GET /v1/disputes?status=open`,
    20_000,
  );
}

beforeAll(async () => {
  const secret = `sk_test_${randomBytes(12).toString('hex')}`;
  expect((await control('POST', '/__control/accounts', { secret_key: secret })).status).toBeLessThan(300);
  const response = await api('POST', '/v1/provider-accounts', { key: key(), body: { provider: 'stripe', name: 'Stripe chargebacks', credentials: { secret_key: secret }, priority: 97 } });
  expect(response.status).toBe(201);
  stripe = { id: response.body.id as string, secret };
  const endpoints = (await stripeApi(secret, '/webhook_endpoints')).body.data as Json[];
  // The account's endpoint (payments, refunds, disputes) and its Connect endpoint (subaccounts' account.updated).
  const payments = endpoints.filter((endpoint) => !String(endpoint.url).includes('/subaccounts?'));
  expect(payments).toHaveLength(1);
  expect(payments[0]!.enabled_events).toEqual(expect.arrayContaining(['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed']));
  expect(endpoints.filter((endpoint) => endpoint.description === 'Orquestra Connect').map((endpoint) => endpoint.enabled_events)).toEqual([['account.updated']]);
});

describe('Stripe card disputes', () => {
  it('a chargeback opened at Stripe is an open dispute once however often redelivered; evidence reaches Stripe (under_review); lost returns the money', async () => {
    const payment = await paidCard(15_990);
    const opened = await control('POST', `/__control/charges/${payment.provider_payment_id}/dispute`, { reason: 'product_not_received' });
    expect(opened.status).toBe(200);
    const stripeDispute = opened.body.id as string;

    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ object: 'dispute', kind: 'chargeback', status: 'open', amount: 15_990, provider: 'stripe', payment_id: payment.id, evidence: null });
    expect(dispute.reason).toMatch(/product_not_received/);
    // Stripe's deadline (evidence_details.due_by), not ours.
    expect(Date.parse(dispute.due_at)).toBe(opened.body.evidence_details.due_by * 1000);
    await eventsInclude(dispute.id, 'dispute.created');

    // Stripe resends the same event: nothing new.
    for (let i = 0; i < 3; i += 1) expect((await control('POST', `/__control/disputes/${stripeDispute}/redeliver`, { type: 'charge.dispute.created' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await api('GET', `/v1/disputes?payment_id=${payment.id}`, { key: key() })).body.data).toHaveLength(1);
    expect(await eventsOfDispute(dispute.id)).toEqual(['dispute.created']);

    const answered = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { key: key(), body: { text: 'Pedido entregue em 20/11.', urls: ['https://loja.example/rastreio/BR123'] } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'under_review', evidence: { text: 'Pedido entregue em 20/11.', urls: ['https://loja.example/rastreio/BR123'] } });
    const atStripe = (await stripeApi(stripe.secret, `/disputes/${stripeDispute}`)).body;
    expect(atStripe).toMatchObject({ status: 'under_review', evidence: { uncategorized_text: 'Pedido entregue em 20/11.\n\nComprovantes:\nhttps://loja.example/rastreio/BR123' } });
    await eventsInclude(dispute.id, 'dispute.updated');

    // A second defense is refused by us (no longer open) before Stripe is asked.
    const again = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { key: key(), body: { text: 'De novo.' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'dispute_not_open', param: 'id' });

    expect((await control('POST', `/__control/disputes/${stripeDispute}/close`, { outcome: 'lost' })).status).toBe(200);
    const lost = await statusOf(dispute.id, 'lost');
    expect(lost.closed_at).toEqual(expect.any(String));
    const after = await eventually(async () => {
      const p = (await api('GET', `/v1/payments/${payment.id}`, { key: key() })).body;
      return p.status === 'refunded' ? p : undefined;
    }, 'the payment refunded by the lost chargeback', 15_000);
    expect(after).toMatchObject({ status: 'refunded', amount_refunded: 15_990 });
    await eventsInclude(dispute.id, 'dispute.closed');
    expect((await eventsOfDispute(dispute.id)).sort()).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  });

  it('a chargeback Stripe decides for the merchant without evidence is won and leaves the payment alone', async () => {
    const payment = await paidCard(7_000);
    const opened = await control('POST', `/__control/charges/${payment.provider_payment_id}/dispute`, { amount: 3_000 });
    expect(opened.status).toBe(200);
    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ kind: 'chargeback', amount: 3_000 });
    await eventsInclude(dispute.id, 'dispute.created');

    expect((await control('POST', `/__control/disputes/${opened.body.id}/close`, { outcome: 'won' })).status).toBe(200);
    await statusOf(dispute.id, 'won');
    await eventsInclude(dispute.id, 'dispute.closed');
    expect((await api('GET', `/v1/payments/${payment.id}`, { key: key() })).body).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    expect((await eventsOfDispute(dispute.id)).sort()).toEqual(['dispute.closed', 'dispute.created']);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Card, boleto and Pix refunds at Stripe and Pagar.me through the REST API, on the boleto-and-card
 * merchant. Its own accounts are connected with priorities far behind that suite's (Stripe A 10,
 * B 20, Pagar.me 30) and every payment here names its account, so the other suite's routing is
 * unchanged. Each refund is also checked at the provider (the emulators' own APIs): what was asked
 * there, with our refund id, and nothing when we refused.
 */
type Json = Record<string, any>;

const key = () => stackInfo().cardsMerchant.testKey;
const token = () => randomBytes(12).toString('hex');

const ADDRESS = { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-200' };
const CUSTOMER = { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25', phone: '+55 11 98765-4321', address: ADDRESS };

async function http(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const control = (provider: 'stripe' | 'pagarme', method: string, path: string, body?: unknown) => http(`${stackInfo().controlUrls[provider]}${path}`, method, {}, body);
/** Stripe's own API, as the account owner would call it. */
const stripeApi = (secret: string, method: string, path: string) => http(`http://127.0.0.1:${stackInfo().ports['stripeApi']}/v1${path}`, method, { authorization: `Bearer ${secret}` });
/** Pagar.me's own API (HTTP Basic with the secret key). */
const pagarmeApi = (secret: string, path: string) =>
  http(`http://127.0.0.1:${stackInfo().ports['pagarmeApi']}/core/v5${path}`, 'GET', { authorization: `Basic ${Buffer.from(`${secret}:`).toString('base64')}` });

async function connect(provider: 'stripe' | 'pagarme', name: string, priority: number): Promise<{ id: string; secret: string }> {
  const secret = `sk_test_${token()}`;
  expect((await control(provider, 'POST', '/__control/accounts', { secret_key: secret })).status).toBeLessThan(300);
  const response = await api('POST', '/v1/provider-accounts', { key: key(), body: { provider, name, credentials: { secret_key: secret }, priority } });
  expect(response.status).toBe(201);
  return { id: response.body.id as string, secret };
}

const read = async (paymentId: string) => (await api('GET', `/v1/payments/${paymentId}`, { key: key() })).body;

async function paymentWhen(paymentId: string, what: string, ok: (payment: Json) => boolean): Promise<Json> {
  return eventually(async () => {
    const payment = await read(paymentId);
    return ok(payment) ? payment : undefined;
  }, what, 15_000);
}

function refund(paymentId: string, body: Json = {}, idempotencyKey: string = randomUUID()) {
  return api('POST', `/v1/payments/${paymentId}/refund`, { key: key(), idempotencyKey, body });
}

async function pay(accountId: string, method: 'card' | 'boleto' | 'pix', amount: number): Promise<Json> {
  const created = await api('POST', '/v1/payments', {
    key: key(),
    idempotencyKey: randomUUID(),
    body: {
      method,
      amount,
      description: 'Pedido reembolso',
      customer: CUSTOMER,
      provider_account_id: accountId,
      ...(method === 'card' ? { card: { token: 'pm_card_visa' } } : {}),
    },
  });
  expect(created.status).toBe(201);
  expect(created.body.provider_account_id).toBe(accountId);
  if (created.body.status === 'succeeded') return created.body;
  expect(created.body.status).toBe('pending');
  expect((await api('POST', `/v1/payments/${created.body.id}/simulate`, { key: key() })).status).toBe(200);
  return paymentWhen(created.body.id, `${method} ${created.body.id} paid`, (p) => p.status === 'succeeded');
}

async function eventTypes(paymentId: string, expected: string[]): Promise<string[]> {
  return eventually(async () => {
    const list = await api('GET', `/v1/events?payment_id=${paymentId}&limit=100`, { key: key() });
    expect(list.status).toBe(200);
    const types = (list.body.data as Json[]).map((e) => e.type as string);
    return expected.every((t) => types.includes(t)) ? types : undefined;
  }, `events ${expected.join(', ')} of ${paymentId}`);
}

const count = (items: string[], item: string) => items.filter((i) => i === item).length;

let stripe: { id: string; secret: string };
let pagarme: { id: string; secret: string };

beforeAll(async () => {
  stripe = await connect('stripe', 'Stripe reembolsos', 90);
  pagarme = await connect('pagarme', 'Pagar.me reembolsos', 95);
});

describe('Stripe card refunds', () => {
  it('refunds everything when amount is omitted: succeeded at once, payment refunded, one refund at Stripe carrying our id', async () => {
    const payment = await pay(stripe.id, 'card', 4990);
    expect(payment.provider_payment_id).toMatch(/^pi_/);
    const answer = await refund(payment.id, { reason: 'Cliente desistiu' });
    expect(answer.status).toBe(201);
    expect(answer.body.refund).toMatchObject({ object: 'refund', payment_id: payment.id, amount: 4990, status: 'succeeded', source: 'service', reason: 'Cliente desistiu' });
    expect(answer.body.refund.provider_refund_id).toMatch(/^re_/);

    const refunded = await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
    expect(refunded.amount_refunded).toBe(4990);
    expect(refunded.refunds).toEqual([expect.objectContaining({ id: answer.body.refund.id, amount: 4990, status: 'succeeded', source: 'service' })]);

    const atStripe = await stripeApi(stripe.secret, 'GET', `/refunds?payment_intent=${payment.provider_payment_id}`);
    expect(atStripe.body.data).toEqual([
      expect.objectContaining({ id: answer.body.refund.provider_refund_id, amount: 4990, status: 'succeeded', metadata: expect.objectContaining({ orquestra_refund_id: answer.body.refund.id }) }),
    ]);
    // Nothing is left.
    const again = await refund(payment.id, {});
    expect([again.status, again.body.error?.code]).toEqual([409, 'payment_not_refundable']);
  });

  it('accumulates partial refunds, refuses more than is left, replays an Idempotency-Key, and logs every event', async () => {
    const payment = await pay(stripe.id, 'card', 5000);
    const over = await refund(payment.id, { amount: 5001 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining', param: 'amount' });
    expect(over.body.error.message).toContain('R$ 50,00');
    expect((await stripeApi(stripe.secret, 'GET', `/refunds?payment_intent=${payment.provider_payment_id}`)).body.data).toEqual([]);

    const idempotencyKey = `refund-${randomUUID()}`;
    const first = await refund(payment.id, { amount: 2000 }, idempotencyKey);
    expect(first.status).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: 2000, status: 'succeeded' });
    const replay = await refund(payment.id, { amount: 2000 }, idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.refund.id).toBe(first.body.refund.id);

    const partial = await paymentWhen(payment.id, 'partially_refunded', (p) => p.status === 'partially_refunded');
    expect(partial.amount_refunded).toBe(2000);
    expect(partial.refunds).toHaveLength(1);
    expect((await stripeApi(stripe.secret, 'GET', `/refunds?payment_intent=${payment.provider_payment_id}`)).body.data).toHaveLength(1);

    const overRest = await refund(payment.id, { amount: 3001 });
    expect(overRest.status).toBe(400);
    expect(overRest.body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining', param: 'amount' });
    expect(overRest.body.error.message).toContain('R$ 30,00');

    const rest = await refund(payment.id, {});
    expect(rest.status).toBe(201);
    expect(rest.body.refund).toMatchObject({ amount: 3000, status: 'succeeded' });
    const refunded = await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
    expect(refunded.amount_refunded).toBe(5000);
    expect(refunded.refunds.map((r: Json) => [r.amount, r.status, r.source])).toEqual([
      [2000, 'succeeded', 'service'],
      [3000, 'succeeded', 'service'],
    ]);
    const atStripe = (await stripeApi(stripe.secret, 'GET', `/refunds?payment_intent=${payment.provider_payment_id}`)).body.data as Json[];
    expect(atStripe.map((r) => r.metadata.orquestra_refund_id).sort()).toEqual([first.body.refund.id, rest.body.refund.id].sort());

    const types = await eventTypes(payment.id, ['refund.created', 'refund.succeeded', 'payment.partially_refunded', 'payment.refunded']);
    expect(count(types, 'refund.succeeded')).toBe(2);
    expect(count(types, 'payment.partially_refunded')).toBe(1);
    expect(count(types, 'payment.refunded')).toBe(1);
  });
});

describe('Stripe boleto refunds (the payer must give bank details)', () => {
  it('stays pending (requires_action at Stripe), reserving its amount, until the payer answers: then succeeded', async () => {
    const payment = await pay(stripe.id, 'boleto', 4990);
    const answer = await refund(payment.id, { amount: 1990 });
    expect(answer.status).toBe(201);
    expect(answer.body.refund).toMatchObject({ amount: 1990, status: 'pending', source: 'service' });
    const stripeRefund = answer.body.refund.provider_refund_id as string;
    expect(stripeRefund).toMatch(/^re_/);
    expect((await stripeApi(stripe.secret, 'GET', `/refunds/${stripeRefund}`)).body).toMatchObject({ status: 'requires_action', amount: 1990 });

    // A sync asks Stripe again: still waiting, nothing counted yet, the amount still reserved.
    expect((await api('POST', `/v1/payments/${payment.id}/sync`, { key: key() })).status).toBe(200);
    const waiting = await read(payment.id);
    expect(waiting).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    expect(waiting.refunds).toEqual([expect.objectContaining({ id: answer.body.refund.id, status: 'pending' })]);
    const over = await refund(payment.id, { amount: 3001 });
    expect(over.body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining', param: 'amount' });

    expect((await control('stripe', 'POST', `/__control/refunds/${stripeRefund}/settle`, { outcome: 'succeeded' })).status).toBe(200);
    const partial = await paymentWhen(payment.id, 'boleto refund succeeded', (p) => p.status === 'partially_refunded');
    expect(partial.amount_refunded).toBe(1990);
    expect(partial.refunds).toEqual([expect.objectContaining({ id: answer.body.refund.id, status: 'succeeded' })]);
    expect(await eventTypes(payment.id, ['refund.created', 'refund.succeeded', 'payment.partially_refunded'])).not.toContain('payment.refunded');
  });

  it('fails when the payer never answers (canceled at Stripe): the amount is free again, the payment untouched', async () => {
    const payment = await pay(stripe.id, 'boleto', 4990);
    const answer = await refund(payment.id, {});
    expect(answer.status).toBe(201);
    expect(answer.body.refund).toMatchObject({ amount: 4990, status: 'pending' });
    // Everything is reserved meanwhile.
    expect((await refund(payment.id, { amount: 1 })).body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining' });

    expect((await control('stripe', 'POST', `/__control/refunds/${answer.body.refund.provider_refund_id}/settle`, { outcome: 'canceled' })).status).toBe(200);
    const failed = await paymentWhen(payment.id, 'boleto refund failed', (p) => p.refunds[0]?.status === 'failed');
    expect(failed).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    expect(failed.refunds[0]).toMatchObject({ failure_code: 'refund_canceled' });
    expect(failed.refunds[0].failure_reason).toContain('dados bancários');
    expect(await eventTypes(payment.id, ['refund.created', 'refund.failed'])).not.toContain('refund.succeeded');

    // The amount is free again: the whole payment can be asked once more.
    const again = await refund(payment.id, { amount: 4990 });
    expect(again.status).toBe(201);
    expect(again.body.refund).toMatchObject({ amount: 4990, status: 'pending' });
    expect(again.body.refund.provider_refund_id).not.toBe(answer.body.refund.provider_refund_id);
  });
});

describe('Pagar.me refunds', () => {
  it('refunds part of a Pix, then the rest: partially_refunded, refunded, each a cancel operation carrying our id', async () => {
    const payment = await pay(pagarme.id, 'pix', 3000);
    expect(payment.provider).toBe('pagarme');
    const first = await refund(payment.id, { amount: 1000, reason: 'Item devolvido' });
    expect(first.status).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: 1000, status: 'succeeded', source: 'service', reason: 'Item devolvido' });
    const partial = await paymentWhen(payment.id, 'partially_refunded', (p) => p.status === 'partially_refunded');
    expect(partial.amount_refunded).toBe(1000);
    expect((await pagarmeApi(pagarme.secret, `/charges/${payment.provider_payment_id}`)).body).toMatchObject({ status: 'paid', canceled_amount: 1000 });

    const rest = await refund(payment.id, {});
    expect(rest.status).toBe(201);
    expect(rest.body.refund).toMatchObject({ amount: 2000, status: 'succeeded' });
    const refunded = await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
    expect(refunded.amount_refunded).toBe(3000);
    expect(refunded.refunds.map((r: Json) => [r.amount, r.status, r.source])).toEqual([
      [1000, 'succeeded', 'service'],
      [2000, 'succeeded', 'service'],
    ]);

    expect((await pagarmeApi(pagarme.secret, `/charges/${payment.provider_payment_id}`)).body).toMatchObject({ status: 'canceled', canceled_amount: 3000 });
    const transactions = (await pagarmeApi(pagarme.secret, `/charges/${payment.provider_payment_id}/transactions`)).body.data as Json[];
    const cancels = transactions.filter((t) => t.operation_type === 'cancel');
    expect(cancels.map((t) => [t.id, t.amount, t.metadata.operation_reference])).toEqual([
      [first.body.refund.provider_refund_id, 1000, first.body.refund.id],
      [rest.body.refund.provider_refund_id, 2000, rest.body.refund.id],
    ]);

    // The charge now reads `canceled` at Pagar.me; a sync keeps the payment refunded with its two refunds.
    expect((await api('POST', `/v1/payments/${payment.id}/sync`, { key: key() })).status).toBe(200);
    const synced = await read(payment.id);
    expect(synced).toMatchObject({ status: 'refunded', amount_refunded: 3000 });
    expect(synced.refunds).toHaveLength(2);
    const types = await eventTypes(payment.id, ['refund.created', 'refund.succeeded', 'payment.partially_refunded', 'payment.refunded']);
    expect(count(types, 'refund.succeeded')).toBe(2);
    expect(types).not.toContain('payment.canceled');
  });

  it('refuses a paid boleto with 422 refund_not_supported in Portuguese and changes nothing; refunded in the dashboard, it arrives as source provider', async () => {
    const payment = await pay(pagarme.id, 'boleto', 4990);
    const before = await read(payment.id);
    const answer = await refund(payment.id, { amount: 1000 });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('refund_not_supported');
    expect(answer.body.error.message).toContain('conta bancária');
    expect(answer.body.error.message).toContain('painel do Pagar.me');

    const after = await read(payment.id);
    expect(after).toMatchObject({ status: 'succeeded', amount_refunded: 0, refunds: [] });
    expect(after.events).toEqual(before.events);
    const charge = (await pagarmeApi(pagarme.secret, `/charges/${payment.provider_payment_id}`)).body;
    expect(charge.status).toBe('paid');
    expect(charge.canceled_amount ?? 0).toBe(0);

    // Pagar.me's dashboard collects the payer's bank account itself.
    const made = await control('pagarme', 'POST', `/__control/charges/${payment.provider_payment_id}/refund`, { amount: 990 });
    expect(made.status).toBe(200);
    const seen = await paymentWhen(payment.id, 'dashboard boleto refund', (p) => p.status === 'partially_refunded');
    expect(seen.amount_refunded).toBe(990);
    expect(seen.refunds).toEqual([expect.objectContaining({ amount: 990, status: 'succeeded', source: 'provider', provider_refund_id: made.body.transaction_id })]);
  });
});

describe('refunds made in the provider’s dashboard', () => {
  it('Stripe: a dashboard refund reaches the payment by webhook as source provider, and what is left accounts for it', async () => {
    const payment = await pay(stripe.id, 'card', 3000);
    const made = await control('stripe', 'POST', `/__control/charges/${payment.provider_payment_id}/refund`, { amount: 1000 });
    expect(made.status).toBe(200);
    const seen = await paymentWhen(payment.id, 'Stripe dashboard refund', (p) => p.refunds.length > 0 && p.status === 'partially_refunded');
    expect(seen.amount_refunded).toBe(1000);
    expect(seen.refunds).toEqual([expect.objectContaining({ amount: 1000, status: 'succeeded', source: 'provider', provider_refund_id: made.body.id })]);
    expect(seen.refunds[0].id).toMatch(/^re_[0-9a-z]{26}$/);
    const over = await refund(payment.id, { amount: 2001 });
    expect(over.body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining', param: 'amount' });
    // A sync sees the same refund and adds nothing.
    expect((await api('POST', `/v1/payments/${payment.id}/sync`, { key: key() })).status).toBe(200);
    expect((await read(payment.id)).refunds).toHaveLength(1);
  });

  it('Pagar.me: charge.partial_canceled then charge.refunded reach the payment as source provider refunds', async () => {
    const payment = await pay(pagarme.id, 'pix', 3000);
    const made = await control('pagarme', 'POST', `/__control/charges/${payment.provider_payment_id}/refund`, { amount: 1000 });
    expect(made.status).toBe(200);
    expect(made.body.webhooks_scheduled).toBeGreaterThan(0);
    const seen = await paymentWhen(payment.id, 'Pagar.me dashboard refund', (p) => p.status === 'partially_refunded');
    expect(seen.amount_refunded).toBe(1000);
    expect(seen.refunds).toEqual([expect.objectContaining({ amount: 1000, status: 'succeeded', source: 'provider', provider_refund_id: made.body.transaction_id })]);
    const deliveries = (await control('pagarme', 'GET', '/__control/webhooks/deliveries')).body.deliveries as Json[];
    expect(deliveries.filter((d) => d.chargeIds.includes(payment.provider_payment_id)).map((d) => [d.type, d.outcome])).toContainEqual(['charge.partial_canceled', 'delivered']);

    const rest = await control('pagarme', 'POST', `/__control/charges/${payment.provider_payment_id}/refund`, {});
    expect(rest.status).toBe(200);
    const refunded = await paymentWhen(payment.id, 'Pagar.me dashboard refund of the rest', (p) => p.status === 'refunded');
    expect(refunded.amount_refunded).toBe(3000);
    expect(refunded.refunds.map((r: Json) => [r.amount, r.source])).toEqual([
      [1000, 'provider'],
      [2000, 'provider'],
    ]);
  });

  it('Stripe, no webhook: POST /sync picks the dashboard refund up', async () => {
    const quiet = await connect('stripe', 'Stripe sem webhook', 91);
    const endpoints = (await stripeApi(quiet.secret, 'GET', '/webhook_endpoints')).body.data as Json[];
    expect(endpoints.length).toBeGreaterThan(0);
    for (const endpoint of endpoints) expect((await stripeApi(quiet.secret, 'DELETE', `/webhook_endpoints/${endpoint.id}`)).status).toBe(200);

    const payment = await pay(quiet.id, 'card', 2500);
    const made = await control('stripe', 'POST', `/__control/charges/${payment.provider_payment_id}/refund`, { amount: 500 });
    expect(made.status).toBe(200);
    expect(await read(payment.id)).toMatchObject({ status: 'succeeded', refunds: [] });

    expect((await api('POST', `/v1/payments/${payment.id}/sync`, { key: key() })).status).toBe(200);
    const synced = await read(payment.id);
    expect(synced).toMatchObject({ status: 'partially_refunded', amount_refunded: 500 });
    expect(synced.refunds).toEqual([expect.objectContaining({ amount: 500, status: 'succeeded', source: 'provider', provider_refund_id: made.body.id })]);
  });

  it('Pagar.me, webhook pointed elsewhere: POST /sync picks the dashboard refund up', async () => {
    const quiet = await connect('pagarme', 'Pagar.me sem webhook', 96);
    const payment = await pay(quiet.id, 'pix', 2500);
    // The owner points the dashboard's webhook somewhere else: nothing reaches us any more.
    expect((await control('pagarme', 'POST', '/__control/webhook', { account: quiet.secret, url: 'http://127.0.0.1:9/nowhere' })).status).toBe(200);

    const made = await control('pagarme', 'POST', `/__control/charges/${payment.provider_payment_id}/refund`, { amount: 500 });
    expect(made.status).toBe(200);
    expect(await read(payment.id)).toMatchObject({ status: 'succeeded', refunds: [] });

    expect((await api('POST', `/v1/payments/${payment.id}/sync`, { key: key() })).status).toBe(200);
    const synced = await read(payment.id);
    expect(synced).toMatchObject({ status: 'partially_refunded', amount_refunded: 500 });
    expect(synced.refunds).toEqual([expect.objectContaining({ amount: 500, status: 'succeeded', source: 'provider', provider_refund_id: made.body.transaction_id })]);
  });
});

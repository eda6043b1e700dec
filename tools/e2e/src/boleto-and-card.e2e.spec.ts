import { randomBytes, randomUUID } from 'node:crypto';
import { boletoLineIsValid } from './support/boleto-check';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Boleto and card through the whole stack, on a merchant of its own with two Stripe accounts
 * (A priority 10, B priority 20) connected here: routing by the customer data each method needs,
 * a boleto paid by Stripe's webhook, card approvals and declines, a card token bound to its
 * account, and (issue 3) an ambiguous card timeout that never becomes two charges. The test stack
 * runs providers with a 1.5 s request timeout.
 */
const key = () => stackInfo().cardsMerchant.testKey;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const secretA = `sk_test_${randomBytes(12).toString('hex')}`;
const secretB = `sk_test_${randomBytes(12).toString('hex')}`;
let accountA = '';
let accountB = '';
let stripeIdA = '';
let stripeIdB = '';

const ADDRESS = { street: 'Avenida Paulista', number: '1578', complement: 'Conjunto 12', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-200' };
const CUSTOMER = { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25', address: ADDRESS };

async function stripeControl(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stackInfo().controlUrls.stripe}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

async function connect(secret: string, name: string, priority: number): Promise<{ account: string; stripeId: string }> {
  const registered = await stripeControl('POST', '/__control/accounts', { secret_key: secret });
  expect(registered.status).toBeLessThan(300);
  const response = await api('POST', '/v1/provider-accounts', { key: key(), body: { provider: 'stripe', name, credentials: { secret_key: secret }, priority } });
  expect(response.status).toBe(201);
  return { account: response.body.id as string, stripeId: registered.body.id as string };
}

async function pay(body: Record<string, unknown>, idempotencyKey = randomUUID()) {
  return api('POST', '/v1/payments', { key: key(), idempotencyKey, body: { amount: 4990, description: 'Pedido boleto/cartão', metadata: { order_id: randomUUID() }, ...body } });
}

async function chargesAt(stripeId: string): Promise<number> {
  const stats = await stripeControl('GET', '/__control/stats');
  return (stats.body.by_account as Record<string, number>)[stripeId] ?? 0;
}

beforeAll(async () => {
  ({ account: accountA, stripeId: stripeIdA } = await connect(secretA, 'Stripe A', 10));
  ({ account: accountB, stripeId: stripeIdB } = await connect(secretB, 'Stripe B', 20));
});

async function connectPagarme(): Promise<string> {
  const secret = `sk_test_${randomBytes(12).toString('hex')}`;
  const registered = await fetch(`${stackInfo().controlUrls.pagarme}/__control/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret_key: secret }),
  });
  expect(registered.status).toBeLessThan(300);
  const response = await api('POST', '/v1/provider-accounts', { key: key(), body: { provider: 'pagarme', name: 'Pagar.me', credentials: { secret_key: secret }, priority: 30 } });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

afterAll(async () => {
  await stripeControl('DELETE', `/__control/faults?account=${encodeURIComponent(secretA)}`);
});

describe('GET /v1/providers tells what boleto and card need', () => {
  it('lists Stripe with pix, boleto and card, and the customer data of each', async () => {
    const response = await api('GET', '/v1/providers', { key: key() });
    expect(response.status).toBe(200);
    const stripe = (response.body.data as Array<Record<string, any>>).find((p) => p.code === 'stripe');
    expect(stripe?.capabilities.methods).toEqual(['pix', 'boleto', 'card']);
    expect(stripe?.capabilities.customer_requires).toMatchObject({ boleto: ['document', 'address', 'email'], card: ['document'] });
    const pagarme = (response.body.data as Array<Record<string, any>>).find((p) => p.code === 'pagarme');
    expect(pagarme?.capabilities.methods).toEqual(['pix', 'boleto', 'card']);
    expect(pagarme?.capabilities.customer_requires.boleto).toEqual(['document', 'email', 'phone', 'address']);
  });
});

describe('boleto', () => {
  it('names the missing datum: address, then document (bot rule 5)', async () => {
    const { address: _a, ...withoutAddress } = CUSTOMER;
    const noAddress = await pay({ method: 'boleto', customer: withoutAddress });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.error).toMatchObject({ code: 'missing_address', param: 'customer.address' });
    expect(noAddress.body.error.message).toEqual(expect.any(String));

    const { document: _d, ...withoutDocument } = CUSTOMER;
    const noDocument = await pay({ method: 'boleto', customer: withoutDocument });
    expect(noDocument.status).toBe(400);
    expect(noDocument.body.error).toMatchObject({ code: 'missing_document', param: 'customer.document' });
  });

  it('refuses a malformed address with the field named', async () => {
    const response = await pay({ method: 'boleto', customer: { ...CUSTOMER, address: { ...ADDRESS, zip: '123' } } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'customer.address.zip' });
  });

  it('answers a boleto to pay, due at the end of its day in São Paulo, and is paid by the provider webhook', async () => {
    // Pinned to Stripe A: the merchant's seeded Efí account takes boleto too (Efí Cobranças).
    const response = await pay({ method: 'boleto', customer: CUSTOMER, provider_account_id: accountA });
    expect(response.status).toBe(201);
    const payment = response.body;
    expect(payment).toMatchObject({ method: 'boleto', status: 'pending', provider: 'stripe', provider_account_id: accountA, next_action: { type: 'boleto' } });
    expect(boletoLineIsValid(payment.next_action.digitable_line)).toBe(true);
    expect(payment.next_action.digitable_line.slice(-10)).toBe('0000004990');
    expect(payment.next_action.url).toMatch(/^http/);
    expect(payment.expires_at).toMatch(/T02:59:59(\.000)?Z$/);

    const simulated = await api('POST', `/v1/payments/${payment.id}/simulate`, { key: key() });
    expect(simulated.status).toBe(200);
    const paid = await eventually(async () => {
      const read = await api('GET', `/v1/payments/${payment.id}`, { key: key() });
      return read.body.status === 'succeeded' ? read.body : undefined;
    }, 'the boleto paid by webhook');
    expect(paid.amount).toBe(4990);
  });
});

describe('boleto at Pagar.me', () => {
  it('forced to a Pagar.me account: a valid line, the phone it needs, paid by its webhook', async () => {
    const pagarme = await connectPagarme();
    const noPhone = await pay({ method: 'boleto', customer: CUSTOMER, provider_account_id: pagarme });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.error).toMatchObject({ code: 'missing_phone', param: 'customer.phone' });

    const response = await pay({ method: 'boleto', customer: { ...CUSTOMER, phone: '+55 11 98765-4321' }, provider_account_id: pagarme });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ method: 'boleto', status: 'pending', provider: 'pagarme', next_action: { type: 'boleto' } });
    expect(boletoLineIsValid(response.body.next_action.digitable_line)).toBe(true);
    expect(response.body.expires_at).toMatch(/T02:59:59(\.000)?Z$/);
    expect((await api('POST', `/v1/payments/${response.body.id}/simulate`, { key: key() })).status).toBe(200);
    await eventually(async () => {
      const read = await api('GET', `/v1/payments/${response.body.id}`, { key: key() });
      return read.body.status === 'succeeded' ? read.body : undefined;
    }, 'the Pagar.me boleto paid by webhook', 15_000);
  });
});

describe('card', () => {
  it('needs card.token and the account that minted it', async () => {
    // No token and no account with a hosted checkout (Stripe needs its own token): say card.token.
    const noCard = await pay({ method: 'card', customer: CUSTOMER });
    expect(noCard.status).toBe(400);
    expect(noCard.body.error).toMatchObject({ code: 'parameter_missing', param: 'card.token' });
    expect(noCard.body.error.message).toContain('checkout hospedado');

    const noAccount = await pay({ method: 'card', customer: CUSTOMER, card: { token: 'pm_card_visa' } });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.error).toMatchObject({ code: 'parameter_missing', param: 'provider_account_id' });
    expect(noAccount.body.error.message).toContain('provider_account_id');

    const foreign = await pay({ method: 'card', customer: CUSTOMER, card: { token: 'pm_1TokenOfAnotherAccount' }, provider_account_id: accountB });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card.token' });
    expect(foreign.body.error.message).toContain('não é válido nesta conta');
  });

  it('is approved at once on the named account, in installments', async () => {
    const response = await pay({ method: 'card', customer: CUSTOMER, card: { token: 'pm_card_visa', installments: 3, brand: 'visa' }, provider_account_id: accountB });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ method: 'card', status: 'succeeded', provider_account_id: accountB, failure_code: null });
    expect(response.body.provider_payment_id).toMatch(/^pi_/);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined', 'recusou'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'insuficiente'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'vencido'],
  ])('%s → failed with failure_code %s and a Portuguese reason', async (token, code, words) => {
    const before = await chargesAt(stripeIdA);
    const response = await pay({ method: 'card', customer: CUSTOMER, card: { token }, provider_account_id: accountB });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'failed', failure_code: code });
    expect(response.body.failure_reason).toContain(words);
    // A decline is about the card: it never moves to another account.
    expect(await chargesAt(stripeIdA)).toBe(before);
    // failed is final: cancel, refund and simulate are refused and change nothing.
    const id = response.body.id as string;
    const stored = await api('GET', `/v1/payments/${id}`, { key: key() });
    const refused = [
      [await api('POST', `/v1/payments/${id}/cancel`, { key: key() }), 'payment_not_cancelable'],
      [await api('POST', `/v1/payments/${id}/refund`, { key: key(), body: {} }), 'payment_not_refundable'],
      [await api('POST', `/v1/payments/${id}/simulate`, { key: key() }), 'payment_not_simulatable'],
    ] as const;
    for (const [answer, errorCode] of refused) expect([answer.status, answer.body.error?.code]).toEqual([409, errorCode]);
    const after = await api('GET', `/v1/payments/${id}`, { key: key() });
    expect(after.body).toMatchObject({ status: 'failed', amount_refunded: 0, failure_code: code });
    expect(after.body.events).toEqual(stored.body.events);
    expect(after.body.refunds).toEqual([]);
  });
});

describe('an ambiguous card timeout (issue 3)', () => {
  it('never makes two charges: one PaymentIntent at the account, none elsewhere, and a retry finds it', async () => {
    const beforeA = await chargesAt(stripeIdA);
    const beforeB = await chargesAt(stripeIdB);
    // Stripe A answers only after our 1.5 s timeout: it does create the PaymentIntent, late.
    const fault = await stripeControl('POST', '/__control/faults', { account: secretA, latency_ms: 2_500 });
    expect(fault.status).toBe(200);
    const idempotencyKey = randomUUID();
    const body = { method: 'card', customer: CUSTOMER, card: { token: 'pm_card_visa' }, provider_account_id: accountA, metadata: { order_id: 'ambiguous-1' } };

    const first = await pay(body, idempotencyKey);
    // Whatever the client sees, it is one of these two, never a charge elsewhere.
    expect([201, 504]).toContain(first.status);
    if (first.status === 201) expect(first.body).toMatchObject({ status: 'succeeded', provider_account_id: accountA });
    else expect(first.body.error).toMatchObject({ code: 'provider_timeout' });

    // Let every late answer (the create and its same-key resolution) land at the emulator: wait for
    // the one charge at A (a loaded machine may take longer than any fixed pause), and in any case
    // 6 s from the answer, so that a second charge anywhere would have arrived, then count.
    const settledAt = Date.now() + 6_000;
    await eventually(async () => ((await chargesAt(stripeIdA)) >= beforeA + 1 ? true : undefined), 'the late PaymentIntent at Stripe A', 20_000);
    await sleep(Math.max(1_000, settledAt - Date.now()));
    expect(await chargesAt(stripeIdA)).toBe(beforeA + 1);
    expect(await chargesAt(stripeIdB)).toBe(beforeB);

    await stripeControl('DELETE', `/__control/faults?account=${encodeURIComponent(secretA)}`);
    // The breaker of A may be open after the timeouts: wait for its reset (1.5 s in the test stack).
    const retried = await eventually(async () => {
      const again = await pay(body, idempotencyKey);
      return again.status === 201 ? again : undefined;
    }, 'the retry with the same Idempotency-Key', 15_000);
    expect(retried.body).toMatchObject({ status: 'succeeded', provider_account_id: accountA, method: 'card' });
    if (first.status === 201) expect(retried.body.id).toBe(first.body.id);

    const replay = await pay(body, idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(retried.body.id);
    expect(await chargesAt(stripeIdA)).toBe(beforeA + 1);
    expect(await chargesAt(stripeIdB)).toBe(beforeB);

    const listed = await api('GET', `/v1/payments?method=card&limit=100`, { key: key() });
    const same = (listed.body.data as Array<Record<string, any>>).filter((p) => p.provider_payment_id === retried.body.provider_payment_id);
    expect(same).toHaveLength(1);
  }, 90_000);
});

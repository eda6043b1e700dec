/**
 * The emulator's own behaviour: auth, order validation, idempotency, isolation between accounts,
 * cancel/refund/expiry, webhooks and faults. The adapter-level flows are in
 * services/providers/src/adapters/pagarme/pagarme.contract.spec.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { isValidDigitableLine } from '../../kit';
import { createPagarmeEmulator, type PagarmeEmulator } from './pagarme-emulator';

jest.setTimeout(20_000);

const KEY = 'sk_test_emulatorSpecKey01';
const OTHER_KEY = 'sk_test_emulatorSpecKey02';
let clock = Date.now();
let emulator: PagarmeEmulator;
let api: string;
let control: string;
let receiver: Server;
let receiverUrl: string;
const hooks: { query: string; body: Record<string, unknown> }[] = [];
let receiverFailuresLeft = 0;

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, key = KEY) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: basic(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

async function controlCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${control}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

const order = (overrides: Record<string, unknown> = {}) => ({
  code: 'pay_emulator_1',
  items: [{ amount: 1990, description: 'Pedido 4411', quantity: 1, code: 'pay_emulator_1' }],
  customer: {
    name: 'Maria Aparecida Souza',
    email: 'maria@example.com',
    document: '52998224725',
    type: 'individual',
    phones: { mobile_phone: { country_code: '55', area_code: '11', number: '999998888' } },
  },
  payments: [{ payment_method: 'pix', pix: { expires_in: 600, additional_information: [{ name: 'Pedido', value: '4411' }] } }],
  metadata: { payment_id: 'pay_emulator_1' },
  ...overrides,
});

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const fail = receiverFailuresLeft > 0;
      if (fail) receiverFailuresLeft -= 1;
      else hooks.push({ query: new URL(req.url ?? '/', 'http://x').search, body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pagarme/acc_1?hmac=s3cret`;
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY, name: 'Loja Exemplo' }], now: () => new Date(clock), expirySweepMs: 0, webhooks: { retries: 3, baseDelayMs: 10 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  expect((await controlCall('POST', '/__control/accounts', { secret_key: OTHER_KEY })).status).toBe(201);
  expect((await controlCall('POST', '/__control/webhook', { account: KEY, url: receiverUrl })).status).toBe(200);
});

afterEach(async () => {
  emulator.state.faults.clear();
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('auth', () => {
  it('answers 401 without a key, with an unknown key, and lists orders with a good one', async () => {
    const none = await fetch(`${api}/orders`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: 'Authorization has been denied for this request.' });
    expect((await call('GET', '/orders', undefined, {}, 'sk_test_unknownKey')).status).toBe(401);
    const list = await call('GET', '/orders?page=1&size=1');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ data: expect.any(Array), paging: { total: expect.any(Number) } });
  });
});

describe('orders', () => {
  it('creates a Pix order with a valid dynamic BR Code, a PNG QR and metadata', async () => {
    const created = await call('POST', '/orders', order());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^or_/), code: 'pay_emulator_1', amount: 1990, status: 'pending', metadata: { payment_id: 'pay_emulator_1' } });
    const charge = created.body.charges[0];
    expect(charge).toMatchObject({ id: expect.stringMatching(/^ch_/), status: 'pending', payment_method: 'pix', amount: 1990 });
    expect(charge.last_transaction).toMatchObject({ transaction_type: 'pix', status: 'waiting_payment', additional_information: [{ name: 'Pedido', value: '4411' }] });
    expect(Date.parse(charge.last_transaction.expires_at)).toBe(clock + 600_000);
    const parsed = parsePix(charge.last_transaction.qr_code);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(isDynamicPix(parsed)).toBe(true);
    const png = await fetch(charge.last_transaction.qr_code_url);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
  });

  it('answers 422 with every invalid field keyed by its path, and echoes the request', async () => {
    const bad = { ...order(), customer: { name: '', email: 'nope', document: '12345678900', type: 'individual' }, items: [] };
    const answer = await call('POST', '/orders', bad);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('The request is invalid.');
    expect(Object.keys(answer.body.errors)).toEqual(expect.arrayContaining(['order.customer.name', 'order.customer.email', 'order.items']));
    expect(answer.body.request).toEqual(bad);
    const noPhone = await call('POST', '/orders', order({ customer: { ...order().customer, phones: undefined } }));
    expect(noPhone.body.errors).toEqual({ 'order.customer.phones': ['At least one customer phone is required.'] });
    expect((await call('POST', '/orders', order({ customer: undefined, customer_id: 'cus_nope' }))).body).toEqual({ message: 'Customer not found.' });
  });

  it('answers a repeated idempotency-key with the first order for 24 h, whatever the body', async () => {
    emulator.state.reset();
    const first = await call('POST', '/orders', order(), { 'idempotency-key': 'key-1' });
    const again = await call('POST', '/orders', order({ items: [{ amount: 5, description: 'x', quantity: 1 }] }), { 'idempotency-key': 'key-1' });
    expect(again.body.id).toBe(first.body.id);
    expect((await call('POST', '/orders', order(), { 'idempotency-key': 'key-1' }, OTHER_KEY)).body.id).not.toBe(first.body.id);
    clock += 24 * 3600 * 1000;
    expect((await call('POST', '/orders', order(), { 'idempotency-key': 'key-1' })).body.id).not.toBe(first.body.id);
    const stats = (await controlCall('GET', '/__control/stats')).body;
    expect(stats.charges_created).toBe(3);
    expect(Object.values(stats.by_account)).toEqual([2, 1]);
  });

  it('hides one account’s orders and charges from another', async () => {
    const created = await call('POST', '/orders', order());
    expect(await call('GET', `/charges/${created.body.charges[0].id}`, undefined, {}, OTHER_KEY)).toEqual({ status: 404, body: { message: 'Charge not found.' } });
    expect(await call('GET', `/orders/${created.body.id}`, undefined, {}, OTHER_KEY)).toEqual({ status: 404, body: { message: 'Order not found.' } });
    expect((await call('GET', `/orders/${created.body.id}`)).body.charges[0].id).toBe(created.body.charges[0].id);
  });
});

describe('boleto orders', () => {
  const address = { line_1: '1578, Avenida Paulista, Bela Vista', zip_code: '01310200', city: 'São Paulo', state: 'SP', country: 'BR' };
  const boleto = (extra: Record<string, unknown> = {}) =>
    order({ code: 'pay_boleto_1', customer: { ...order().customer, address }, payments: [{ payment_method: 'boleto', boleto: { due_at: '2099-01-10T02:59:59Z', instructions: 'Não receber após o vencimento' } }], ...extra });

  it('answers the line, barcode, voucher url/pdf and due date; paid by the control route', async () => {
    const created = await call('POST', '/orders', boleto());
    expect(created.status).toBe(200);
    const charge = created.body.charges[0];
    expect(charge).toMatchObject({ payment_method: 'boleto', status: 'pending', last_transaction: { transaction_type: 'boleto', status: 'generated', due_at: '2099-01-10T02:59:59.000Z' } });
    expect(isValidDigitableLine(charge.last_transaction.line)).toBe(true);
    expect(charge.last_transaction.line.slice(-10)).toBe('0000001990');
    expect(charge.last_transaction.barcode).toHaveLength(44);
    expect(await (await fetch(charge.last_transaction.url)).text()).toContain(charge.last_transaction.line);
    expect((await controlCall('POST', `/__control/charges/${charge.id}/pay`, {})).status).toBe(200);
    expect((await call('GET', `/charges/${charge.id}`)).body).toMatchObject({ status: 'paid', last_transaction: { status: 'paid' } });
  });

  it('refuses a boleto without the customer address or with a past due date', async () => {
    const noAddress = await call('POST', '/orders', boleto({ customer: order().customer }));
    expect(noAddress.status).toBe(422);
    expect(noAddress.body.errors).toEqual({ 'order.customer.address': ['The address field is required.'] });
    const past = await call('POST', '/orders', boleto({ payments: [{ payment_method: 'boleto', boleto: { due_at: '2001-01-01T00:00:00Z' } }] }));
    expect(past.body.errors).toEqual({ 'order.payments[0].boleto.due_at': ['The due_at field must be in the future.'] });
  });
});

describe('charges', () => {
  it('cancels a pending charge once, then refuses; a canceled charge is not payable', async () => {
    const chargeId = (await call('POST', '/orders', order())).body.charges[0].id;
    const canceled = await call('DELETE', `/charges/${chargeId}`);
    expect(canceled.body).toMatchObject({ status: 'canceled', canceled_amount: 1990, order: { status: 'canceled' }, last_transaction: { status: 'canceled' } });
    expect((await call('DELETE', `/charges/${chargeId}`)).status).toBe(412);
    expect((await controlCall('POST', `/__control/charges/${chargeId}/pay`)).status).toBe(409);
    expect((await controlCall('POST', '/__control/charges/ch_unknownunknown0/pay')).status).toBe(404);
  });

  it('pays, sends charge.paid and order.paid (retrying a refusing receiver), and refunds on DELETE', async () => {
    hooks.length = 0;
    receiverFailuresLeft = 1;
    const created = (await call('POST', '/orders', order())).body;
    const chargeId = created.charges[0].id;
    expect((await controlCall('POST', `/__control/charges/${created.id}/pay`)).body).toMatchObject({ charge_id: chargeId, status: 'paid', webhooks_scheduled: 2 });
    await emulator.webhooksIdle();
    expect(hooks.map((h) => h.body['type']).sort()).toEqual(['charge.paid', 'order.paid']);
    const orderPaid = hooks.find((h) => h.body['type'] === 'order.paid')!;
    expect(orderPaid.query).toBe('?hmac=s3cret');
    expect(orderPaid.body).toMatchObject({ id: expect.stringMatching(/^hook_/), account: { id: expect.stringMatching(/^acc_/), name: 'Loja Exemplo' }, data: { id: created.id, status: 'paid', charges: [{ id: chargeId, status: 'paid', paid_amount: 1990 }] } });
    expect(hooks.find((h) => h.body['type'] === 'charge.paid')!.body).toMatchObject({ data: { id: chargeId, order: { id: created.id }, last_transaction: { status: 'paid', end_to_end_id: expect.stringMatching(/^E\d{8}/) } } });
    expect(emulator.state.listDeliveries().some((d) => d.attempts.length === 2 && d.outcome === 'delivered')).toBe(true);

    hooks.length = 0;
    const refunded = await call('DELETE', `/charges/${chargeId}`, { amount: 1990 });
    expect(refunded.body).toMatchObject({ status: 'canceled', last_transaction: { status: 'refunded' } });
    await emulator.webhooksIdle();
    expect(hooks.map((h) => h.body['type']).sort()).toEqual(['charge.refunded', 'order.canceled']);
  });

  it('fails a pending Pix past expires_at and sends the payment_failed events', async () => {
    hooks.length = 0;
    const chargeId = (await call('POST', '/orders', order({ payments: [{ payment_method: 'pix', pix: { expires_in: 60 } }] }))).body.charges[0].id;
    clock += 61_000;
    expect((await call('GET', `/charges/${chargeId}`)).body).toMatchObject({ status: 'failed', order: { status: 'failed' }, last_transaction: { status: 'failed' } });
    await emulator.webhooksIdle();
    expect(hooks.map((h) => h.body['type']).sort()).toEqual(['charge.payment_failed', 'order.payment_failed']);
  });
});

describe('faults and control', () => {
  it('answers injected 500, 429 and 503 per account (named by key), leaving others alone', async () => {
    await controlCall('POST', '/__control/faults', { account: KEY, error_rate: 1 });
    expect(await call('GET', '/orders')).toEqual({ status: 500, body: { message: 'An error has occurred.' } });
    expect((await call('GET', '/orders', undefined, {}, OTHER_KEY)).status).toBe(200);
    await controlCall('POST', '/__control/faults', { account: KEY, rate_limit_rate: 1 });
    expect((await call('GET', '/orders')).status).toBe(429);
    await controlCall('POST', '/__control/faults', { account: KEY, outage: true, outage_mode: '503' });
    expect((await call('GET', '/orders')).status).toBe(503);
    expect((await controlCall('DELETE', '/__control/faults')).status).toBe(204);
    expect((await call('GET', '/orders')).status).toBe(200);
    expect((await controlCall('GET', '/__control/stats')).body.faults_injected).toBeGreaterThanOrEqual(3);
  });

  it('drops connections in a global outage and never answers when hanging', async () => {
    await controlCall('POST', '/__control/faults', { outage: true });
    await expect(call('GET', '/orders')).rejects.toThrow();
    await controlCall('POST', '/__control/faults', { hang: true });
    await expect(fetch(`${api}/orders`, { headers: { authorization: basic(KEY) }, signal: AbortSignal.timeout(300) })).rejects.toThrow();
  });

  it('validates control bodies, registers accounts idempotently and resets state but not accounts', async () => {
    expect((await controlCall('POST', '/__control/accounts', { secret_key: 'pk_test_nope' })).status).toBe(400);
    expect((await controlCall('POST', '/__control/accounts', { secret_key: KEY })).status).toBe(200);
    expect((await controlCall('POST', '/__control/webhook', { account: 'sk_test_notRegistered', url: receiverUrl })).status).toBe(404);
    expect((await controlCall('POST', '/__control/faults', { error_rate: 2 })).status).toBe(400);
    expect((await controlCall('GET', '/__control/health')).status).toBe(200);
    expect((await controlCall('POST', '/__control/reset')).status).toBe(204);
    expect((await controlCall('GET', '/__control/stats')).body).toMatchObject({ charges_created: 0, by_account: {}, accounts: 2, webhooks_configured: 1 });
    expect((await call('GET', '/orders')).status).toBe(200);
  });
});

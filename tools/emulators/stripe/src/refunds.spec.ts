/** The emulator's refund routes over plain HTTP: card, Pix and boleto flows, limits, listing, isolation, events. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStripeEmulator, type StripeEmulator } from './stripe-emulator';

jest.setTimeout(30_000);

const KEY = 'sk_test_refundSpecA';
const OTHER = 'sk_test_refundSpecB';
type Json = Record<string, any>;

let emulator: StripeEmulator;
let api: string;
let control: string;
let receiver: Server;
const events: Json[] = [];

async function call(method: 'GET' | 'POST', path: string, form?: string, key = KEY, headers: Record<string, string> = {}) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...headers },
    ...(form === undefined ? {} : { body: form }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function controlCall(path: string, body: unknown = {}) {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

const BOLETO =
  'amount=5000&currency=brl&payment_method_types[]=boleto&payment_method_data[type]=boleto&payment_method_data[boleto][tax_id]=52998224725' +
  '&payment_method_data[billing_details][name]=Maria&payment_method_data[billing_details][email]=maria@example.com' +
  '&payment_method_data[billing_details][address][line1]=Rua A, 1&payment_method_data[billing_details][address][city]=Sao Paulo' +
  '&payment_method_data[billing_details][address][state]=SP&payment_method_data[billing_details][address][postal_code]=01310100' +
  '&payment_method_data[billing_details][address][country]=BR&confirm=true';

async function paid(kind: 'card' | 'pix' | 'boleto', amount = 5000): Promise<string> {
  const form =
    kind === 'card'
      ? `amount=${amount}&currency=brl&payment_method_types[]=card&payment_method=pm_card_visa&confirm=true`
      : kind === 'pix'
        ? `amount=${amount}&currency=brl&payment_method_types[]=pix&payment_method_data[type]=pix&confirm=true`
        : BOLETO;
  const created = await call('POST', '/v1/payment_intents', form);
  expect(created.status).toBe(200);
  const id = created.body['id'] as string;
  if (kind !== 'card') expect((await controlCall(`/__control/charges/${id}/pay`)).status).toBe(200);
  return id;
}

const until = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [KEY, OTHER], refundSettleMs: 50, webhooks: { retries: 0 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push(JSON.parse(body) as Json);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  expect((await call('POST', '/v1/webhook_endpoints', `url=${encodeURIComponent(url)}&enabled_events[]=*`)).status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('POST /v1/refunds', () => {
  it('refunds a card partially then the rest at once, counting amount_refunded on the charge', async () => {
    const pi = await paid('card', 10_000);
    const first = await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=2500&reason=requested_by_customer&metadata[orquestra_refund_id]=re_1`);
    expect(first).toMatchObject({ status: 200, body: { object: 'refund', amount: 2500, status: 'succeeded', payment_intent: pi, reason: 'requested_by_customer', metadata: { orquestra_refund_id: 're_1' } } });
    const rest = await call('POST', '/v1/refunds', `payment_intent=${pi}`);
    expect(rest.body).toMatchObject({ amount: 7500, status: 'succeeded' });
    const intent = await call('GET', `/v1/payment_intents/${pi}?expand[]=latest_charge`);
    expect(intent.body['latest_charge']).toMatchObject({ amount_refunded: 10_000, refunded: true });
    const again = await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=1`);
    expect(again).toMatchObject({ status: 400, body: { error: { code: 'charge_already_refunded' } } });
    const list = await call('GET', `/v1/refunds?payment_intent=${pi}`);
    expect(list.body['data'].map((r: Json) => r['amount'])).toEqual([7500, 2500]);
  });

  it('refuses more than is left, an unpaid intent, a bad reason, and another account’s intent', async () => {
    const pi = await paid('card', 3_000);
    expect((await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=3001`)).body.error).toMatchObject({ type: 'invalid_request_error', param: 'amount' });
    expect((await call('POST', '/v1/refunds', `payment_intent=${pi}&reason=changed_mind`)).body.error).toMatchObject({ param: 'reason' });
    expect((await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=100`, OTHER)).body.error).toMatchObject({ code: 'resource_missing', param: 'payment_intent' });
    const open = await call('POST', '/v1/payment_intents', 'amount=1000&currency=brl&payment_method_types[]=pix&payment_method_data[type]=pix&confirm=true');
    expect((await call('POST', '/v1/refunds', `payment_intent=${open.body['id'] as string}`)).body.error).toMatchObject({ code: 'charge_not_refundable' });
  });

  it('replays the same refund for a repeated Idempotency-Key', async () => {
    const pi = await paid('card', 4_000);
    const first = await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=1000`, KEY, { 'idempotency-key': 're_same' });
    const second = await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=1000`, KEY, { 'idempotency-key': 're_same' });
    expect(second.body['id']).toBe(first.body['id']);
    expect((await call('GET', `/v1/refunds?payment_intent=${pi}`)).body['data']).toHaveLength(1);
  });

  it('keeps a Pix refund pending, then succeeded, with refund.created, charge.refunded and refund.updated', async () => {
    const pi = await paid('pix', 2_000);
    const refund = await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=500`);
    expect(refund.body['status']).toBe('pending');
    const id = refund.body['id'] as string;
    await until(async () => ((await call('GET', `/v1/refunds/${id}`)).body['status'] === 'succeeded' ? true : undefined));
    await emulator.webhooksIdle();
    const types = events.filter((e) => e['data'].object['id'] === id || (e['data'].object['object'] === 'charge' && e['data'].object['payment_intent'] === pi)).map((e) => e['type']);
    expect(types).toEqual(expect.arrayContaining(['refund.created', 'charge.refunded', 'refund.updated', 'charge.refund.updated']));
  });

  it('keeps a boleto refund in requires_action (bank details e-mailed) until the payer answers', async () => {
    const pi = await paid('boleto');
    const refund = await call('POST', '/v1/refunds', `payment_intent=${pi}`);
    expect(refund.body).toMatchObject({ status: 'requires_action', next_action: { type: 'display_details', display_details: { email_sent: { email_sent_to: 'maria@example.com' } } } });
    const id = refund.body['id'] as string;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await call('GET', `/v1/refunds/${id}`)).body['status']).toBe('requires_action');
    expect((await controlCall(`/__control/refunds/${id}/settle`, { outcome: 'succeeded' })).body).toMatchObject({ status: 'succeeded', next_action: null });
    expect((await controlCall(`/__control/refunds/${id}/settle`, { outcome: 'canceled' })).status).toBe(409);
  });

  it('frees the amount of a canceled boleto refund and makes dashboard refunds without metadata', async () => {
    const pi = await paid('boleto');
    const refund = await call('POST', '/v1/refunds', `payment_intent=${pi}&amount=5000`);
    expect((await controlCall(`/__control/refunds/${refund.body['id'] as string}/settle`, { outcome: 'canceled' })).body['status']).toBe('canceled');
    const dashboard = await controlCall(`/__control/charges/${pi}/refund`, { amount: 1200 });
    expect(dashboard).toMatchObject({ status: 200, body: { amount: 1200, status: 'requires_action', metadata: {} } });
    expect((await controlCall(`/__control/charges/${pi}/refund`, { amount: 4000 })).status).toBe(409);
  });
});

/**
 * The emulator's own behaviour over plain HTTP: authentication, form parameters, idempotency,
 * PaymentIntent lifecycle (Pix and test cards), webhook endpoints and signed deliveries, control
 * routes. The adapter-level flows are in services/providers/src/adapters/stripe/stripe.contract.spec.ts.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasError, parsePix } from 'pix-utils';
import { isValidDigitableLine } from '../../kit';
import { createStripeEmulator, type StripeEmulator } from './stripe-emulator';

jest.setTimeout(30_000);

const KEY = 'sk_test_emulatorSpecA';
const OTHER = 'sk_test_emulatorSpecB';

type Json = Record<string, unknown>;

let emulator: StripeEmulator;
let api: string;
let control: string;
let receiver: Server;
let receiverUrl: string;
let receiverFailuresLeft = 0;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

async function call(method: 'GET' | 'POST' | 'DELETE', path: string, form?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...headers },
    ...(form === undefined ? {} : { body: form }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

async function controlCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${control}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : undefined };
}

const PIX = 'amount=1990&currency=brl&payment_method_types[]=pix&payment_method_data[type]=pix&confirm=true&metadata[order_id]=42';
const errorOf = (body: Json) => body['error'] as Json;

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [KEY, { secret_key: OTHER }], webhooks: { retries: 2, baseDelayMs: 10, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const fail = receiverFailuresLeft > 0;
      if (fail) receiverFailuresLeft -= 1;
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks?hmac=x`;
});

afterEach(async () => {
  emulator.state.faults.clear();
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('authentication', () => {
  it('takes the key as Bearer or as Basic user, and refuses missing or unknown keys with Stripe’s 401', async () => {
    expect((await call('GET', '/v1/payment_intents')).status).toBe(200);
    const basic = Buffer.from(`${KEY}:`).toString('base64');
    expect((await call('GET', '/v1/payment_intents', undefined, { authorization: `Basic ${basic}` })).status).toBe(200);
    const missing = await call('GET', '/v1/payment_intents', undefined, { authorization: '' });
    expect(missing.status).toBe(401);
    expect(errorOf(missing.body)).toMatchObject({ type: 'invalid_request_error' });
    const unknown = await call('GET', '/v1/payment_intents', undefined, { authorization: 'Bearer sk_test_nobody1234' });
    expect(unknown.status).toBe(401);
    expect(errorOf(unknown.body)['message']).toBe('Invalid API Key provided: sk_test_******1234');
  });

  it('answers unknown URLs with Stripe’s 404', async () => {
    const answer = await call('GET', '/v1/nothing');
    expect(answer.status).toBe(404);
    expect(errorOf(answer.body)['message']).toMatch(/^Unrecognized request URL \(GET: \/v1\/nothing\)/);
  });
});

describe('Pix PaymentIntents', () => {
  it('confirms into requires_action with a valid BR Code, images and expiry', async () => {
    const answer = await call('POST', '/v1/payment_intents', `${PIX}&payment_method_options[pix][expires_after_seconds]=600`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'payment_intent', amount: 1990, currency: 'brl', status: 'requires_action', metadata: { order_id: '42' }, latest_charge: null });
    const qr = (answer.body['next_action'] as { pix_display_qr_code: { data: string; expires_at: number; image_url_png: string } }).pix_display_qr_code;
    expect(hasError(parsePix(qr.data))).toBe(false);
    expect(qr.expires_at - (answer.body['created'] as number)).toBe(600);
    const png = Buffer.from(await (await fetch(qr.image_url_png)).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('validates parameters the way Stripe does', async () => {
    const cases: [string, number, string][] = [
      ['currency=brl&payment_method_types[]=pix', 400, 'parameter_missing'],
      ['amount=12.5&currency=brl&payment_method_types[]=pix', 400, 'parameter_invalid_integer'],
      ['amount=49&currency=brl&payment_method_types[]=pix', 400, 'amount_too_small'],
      [`${PIX}&colour=red`, 400, 'parameter_unknown'],
      [`${PIX}&payment_method_options[pix][expires_after_seconds]=5`, 400, 'parameter_invalid_string'],
      ['amount=1990&currency=usd&payment_method_types[]=pix', 400, 'parameter_invalid_string'],
    ];
    for (const [form, status, code] of cases) {
      const answer = await call('POST', '/v1/payment_intents', form);
      expect({ form, status: answer.status, code: errorOf(answer.body)['code'] }).toEqual({ form, status, code });
    }
  });

  it('replays the first answer for an Idempotency-Key and refuses the key with other parameters', async () => {
    const before = emulator.state.stats().charges_created;
    const first = await call('POST', '/v1/payment_intents', PIX, { 'idempotency-key': 'spec-key-1' });
    const again = await call('POST', '/v1/payment_intents', PIX, { 'idempotency-key': 'spec-key-1' });
    expect(again.body['id']).toBe(first.body['id']);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(emulator.state.stats().charges_created).toBe(before + 1);
    const other = await call('POST', '/v1/payment_intents', PIX.replace('1990', '1991'), { 'idempotency-key': 'spec-key-1' });
    expect(other.status).toBe(400);
    expect(errorOf(other.body)['type']).toBe('idempotency_error');
  });

  it('keeps accounts apart, cancels open intents and refuses to cancel paid ones', async () => {
    const pi = (await call('POST', '/v1/payment_intents', PIX)).body;
    const asOther = await call('GET', `/v1/payment_intents/${String(pi['id'])}`, undefined, { authorization: `Bearer ${OTHER}` });
    expect(asOther.status).toBe(404);
    expect(errorOf(asOther.body)).toMatchObject({ code: 'resource_missing', type: 'invalid_request_error' });
    const canceled = await call('POST', `/v1/payment_intents/${String(pi['id'])}/cancel`, '');
    expect(canceled.body).toMatchObject({ status: 'canceled', next_action: null });

    const paid = (await call('POST', '/v1/payment_intents', PIX)).body;
    expect((await controlCall('POST', `/__control/charges/${String(paid['id'])}/pay`)).status).toBe(200);
    const refused = await call('POST', `/v1/payment_intents/${String(paid['id'])}/cancel`, '');
    expect(refused.status).toBe(400);
    expect(errorOf(refused.body)['code']).toBe('payment_intent_unexpected_state');
    const read = await call('GET', `/v1/payment_intents/${String(paid['id'])}?expand[]=latest_charge.balance_transaction`);
    expect(read.body).toMatchObject({ status: 'succeeded', amount_received: 1990, latest_charge: { object: 'charge', status: 'succeeded', balance_transaction: { fee: 24 } } });
  });
});

describe('test cards', () => {
  it('pm_card_visa succeeds at once; pm_card_chargeDeclined answers 402 card_error with the intent', async () => {
    const ok = await call('POST', '/v1/payment_intents', 'amount=5000&currency=brl&payment_method_types[]=card&payment_method=pm_card_visa&confirm=true');
    expect(ok.body).toMatchObject({ status: 'succeeded', amount_received: 5000 });
    const declined = await call('POST', '/v1/payment_intents', 'amount=5000&currency=brl&payment_method_types[]=card&payment_method=pm_card_chargeDeclined&confirm=true');
    expect(declined.status).toBe(402);
    expect(errorOf(declined.body)).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', payment_intent: { status: 'requires_payment_method' } });
  });
});

const BOLETO =
  'amount=4990&currency=brl&payment_method_types[]=boleto&payment_method_data[type]=boleto&payment_method_data[boleto][tax_id]=529.982.247-25' +
  '&payment_method_data[billing_details][name]=Maria&payment_method_data[billing_details][email]=maria%40example.com' +
  '&payment_method_data[billing_details][address][line1]=Av%20Paulista%2C%201578&payment_method_data[billing_details][address][city]=S%C3%A3o%20Paulo' +
  '&payment_method_data[billing_details][address][state]=SP&payment_method_data[billing_details][address][postal_code]=01310-200' +
  '&payment_method_data[billing_details][address][country]=BR&confirm=true';

describe('boleto PaymentIntents', () => {
  it('confirms into requires_action with a valid 47-digit line, voucher links and end-of-day expiry; paid by the control route', async () => {
    const created = await call('POST', '/v1/payment_intents', `${BOLETO}&payment_method_options[boleto][expires_after_days]=2`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'requires_action', payment_method_options: { boleto: { expires_after_days: 2 } } });
    const details = (created.body['next_action'] as Json)['boleto_display_details'] as { number: string; hosted_voucher_url: string; pdf: string; expires_at: number };
    expect(isValidDigitableLine(details.number)).toBe(true);
    expect(details.number.slice(-10)).toBe('0000004990');
    expect(new Date(details.expires_at * 1000).toISOString()).toMatch(/T02:59:59\.000Z$/);
    expect((await fetch(details.hosted_voucher_url)).status).toBe(200);
    expect(await (await fetch(details.pdf)).text()).toContain(details.number);
    const paid = await controlCall('POST', `/__control/charges/${String(created.body['id'])}/pay`);
    expect(paid.status).toBe(200);
    expect((await call('GET', `/v1/payment_intents/${String(created.body['id'])}`)).body).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 4990 });
  });

  it('refuses a boleto without tax_id, with a bad tax_id, a foreign address or a bad CEP', async () => {
    const cases: Array<[string, string]> = [
      [BOLETO.replace('&payment_method_data[boleto][tax_id]=529.982.247-25', ''), 'payment_method_data[boleto][tax_id]'],
      [BOLETO.replace('529.982.247-25', '123'), 'payment_method_data[boleto][tax_id]'],
      [BOLETO.replace('[country]=BR', '[country]=US'), 'payment_method_data[billing_details][address][country]'],
      [BOLETO.replace('01310-200', '0131'), 'payment_method_data[billing_details][address][postal_code]'],
      [`${BOLETO}&payment_method_options[boleto][expires_after_days]=61`, 'payment_method_options[boleto][expires_after_days]'],
    ];
    for (const [form, param] of cases) {
      const answer = await call('POST', '/v1/payment_intents', form);
      expect({ status: answer.status, param: errorOf(answer.body)['param'] }).toEqual({ status: 400, param });
    }
  });

  it('keeps a card installments plan and refuses plans out of 2..12', async () => {
    const card = 'amount=12000&currency=brl&payment_method_types[]=card&payment_method=pm_card_visa&confirm=true';
    const plan = (count: number) => `&payment_method_options[card][installments][plan][count]=${count}&payment_method_options[card][installments][plan][interval]=month&payment_method_options[card][installments][plan][type]=fixed_count`;
    const ok = await call('POST', '/v1/payment_intents', `${card}${plan(6)}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'succeeded', payment_method_options: { card: { installments: { plan: { count: 6 } } } } });
    expect((await call('POST', '/v1/payment_intents', `${card}${plan(13)}`)).status).toBe(400);
  });
});

describe('webhook endpoints and deliveries', () => {
  it('shows the secret only on create, signs each delivery with it, and retries refusals', async () => {
    const created = await call('POST', '/v1/webhook_endpoints', `url=${encodeURIComponent(receiverUrl)}&enabled_events[]=payment_intent.succeeded`);
    const secret = created.body['secret'] as string;
    expect(secret).toMatch(/^whsec_/);
    expect((await call('GET', `/v1/webhook_endpoints/${String(created.body['id'])}`)).body['secret']).toBeUndefined();

    received.length = 0;
    receiverFailuresLeft = 1;
    const pi = (await call('POST', '/v1/payment_intents', PIX)).body;
    await controlCall('POST', `/__control/charges/${String(pi['id'])}/pay`);
    await emulator.webhooksIdle();

    expect(received).toHaveLength(2);
    const delivery = emulator.state.listDeliveries().find((d) => d.paymentIntentId === pi['id']);
    expect(delivery).toMatchObject({ outcome: 'delivered', attempts: [{ status: 500 }, { status: 200 }] });
    const last = received[received.length - 1]!;
    const event = JSON.parse(last.body) as Json;
    expect(event).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', data: { object: { id: pi['id'], status: 'succeeded' } } });
    const header = String(last.headers['stripe-signature']);
    const t = /t=(\d+)/.exec(header)![1]!;
    const v1 = /v1=([0-9a-f]+)/.exec(header)![1];
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${last.body}`).digest('hex'));
    await call('DELETE', `/v1/webhook_endpoints/${String(created.body['id'])}`);
  });
});

describe('control routes', () => {
  it('registers accounts idempotently and validates the key shape', async () => {
    expect((await controlCall('POST', '/__control/accounts', { secret_key: 'sk_test_controlNew' })).status).toBe(201);
    expect((await controlCall('POST', '/__control/accounts', { secret_key: 'sk_test_controlNew' })).status).toBe(200);
    expect((await controlCall('POST', '/__control/accounts', { secret_key: 'nope' })).status).toBe(400);
  });

  it('pays only open Pix intents: 404 unknown, 409 not payable', async () => {
    expect((await controlCall('POST', '/__control/charges/pi_nothing/pay')).status).toBe(404);
    const card = (await call('POST', '/v1/payment_intents', 'amount=5000&currency=brl&payment_method_types[]=card&payment_method=pm_card_visa&confirm=true')).body;
    expect((await controlCall('POST', `/__control/charges/${String(card['id'])}/pay`)).status).toBe(409);
  });

  it('injects faults per account with Stripe’s bodies, counts them, and clears them', async () => {
    await controlCall('POST', '/__control/faults', { account: KEY, rate_limit_rate: 1 });
    const limited = await call('GET', '/v1/payment_intents');
    expect(limited.status).toBe(429);
    expect(errorOf(limited.body)).toMatchObject({ type: 'invalid_request_error', code: 'rate_limit' });
    expect((await call('GET', '/v1/payment_intents', undefined, { authorization: `Bearer ${OTHER}` })).status).toBe(200);
    await controlCall('POST', '/__control/faults', { account: KEY, error_rate: 1 });
    const failed = await call('GET', '/v1/payment_intents');
    expect(failed.status).toBe(500);
    expect(errorOf(failed.body)['type']).toBe('api_error');
    expect((await controlCall('DELETE', '/__control/faults')).status).toBe(204);
    expect((await call('GET', '/v1/payment_intents')).status).toBe(200);
    expect((await controlCall('GET', '/__control/stats')).body!['faults_injected']).toBeGreaterThanOrEqual(2);
  });

  it('reports stats, resets charges but not accounts, and answers health', async () => {
    const stats = (await controlCall('GET', '/__control/stats')).body!;
    expect(stats).toMatchObject({ charges_created: expect.any(Number) as number, by_account: expect.any(Object) as object, webhooks_sent: expect.any(Number) as number, webhooks_failed: expect.any(Number) as number });
    expect((await controlCall('POST', '/__control/reset')).status).toBe(204);
    expect((await controlCall('GET', '/__control/stats')).body).toMatchObject({ charges_created: 0, by_account: {}, faults_injected: 0 });
    expect((await call('GET', '/v1/payment_intents')).body['data']).toEqual([]);
    expect((await controlCall('GET', '/__control/health')).status).toBe(200);
  });
});

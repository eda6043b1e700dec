import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { request } from 'undici';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';
import { centsToReaisText, parseJsonNumbersAsText, reaisTextToCents, writeJson, Reais } from './money-json';

const KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmVtdWxhdG9yLXNwZWM';
const OTHER_KEY = '$aact_hmlg_000b3RoZXItYWNjb3VudC1lbXVsYXRvci1zcGVj';
const CPF = '52998224725';

let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
let receiverUrl: string;
const received: { url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let failNext = 0;

/** undici's request adds no User-Agent of its own, so its absence can be tested. */
async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, key: string | null = KEY, userAgent = 'orquestra-spec') {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers['access_token'] = key;
  if (userAgent) headers['user-agent'] = userAgent;
  const response = await request(`${api}${path}`, { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: text ? (JSON.parse(text) as Record<string, any>) : {}, header: (name: string) => response.headers[name] };
}

async function ctl(method: string, path: string, body?: unknown) {
  const response = await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function newPayment(key = KEY, extra: Record<string, unknown> = {}) {
  const customer = await call('POST', '/v3/customers', { name: 'Maria Souza', cpfCnpj: CPF }, key);
  const payment = await call('POST', '/v3/payments', `{"customer":"${customer.json['id']}","billingType":"PIX","value":100.90,"dueDate":"${tomorrow()}","externalReference":"ref-${Math.random()}"${Object.keys(extra).length ? `,${JSON.stringify(extra).slice(1, -1)}` : ''}}`, key);
  expect(payment.status).toBe(200);
  return payment;
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }, { api_key: OTHER_KEY }], webhooks: { retries: 2, baseDelayMs: 10 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      const fail = failNext > 0;
      if (fail) failNext -= 1;
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/asaas?hmac=abc`;
});

afterEach(async () => {
  await ctl('DELETE', '/__control/faults');
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await emulator.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('money JSON', () => {
  it('keeps decimal numbers exact both ways', () => {
    expect(parseJsonNumbersAsText('{"value":100.90,"a":[1,-2.5],"s":"3.3"}')).toEqual({ value: '100.90', a: ['1', '-2.5'], s: '3.3' });
    expect(writeJson({ value: new Reais(10_090), n: null, ok: true })).toBe('{"value":100.90,"n":null,"ok":true}');
    expect(centsToReaisText(5)).toBe('0.05');
    expect(reaisTextToCents('0.29')).toBe(29);
    expect(reaisTextToCents('1.005')).toBeUndefined();
  });
});

describe('authentication', () => {
  it('answers 401 without a key, with an unknown key, and with a production key', async () => {
    for (const key of [null, '$aact_hmlg_unknown', '$aact_prod_000abc']) {
      const answer = await call('GET', '/v3/customers', undefined, key);
      expect(answer.status).toBe(401);
      expect(answer.json['errors'][0]).toMatchObject({ code: expect.any(String), description: expect.any(String) });
    }
  });

  it('requires a User-Agent', async () => {
    expect((await call('GET', '/v3/customers', undefined, KEY, '')).status).toBe(401);
  });

  it('registers accounts idempotently on the control port', async () => {
    expect((await ctl('POST', '/__control/accounts', { api_key: '$aact_hmlg_new' })).status).toBe(201);
    expect((await ctl('POST', '/__control/accounts', { api_key: '$aact_hmlg_new' })).status).toBe(200);
    expect((await call('GET', '/v3/customers', undefined, '$aact_hmlg_new')).status).toBe(200);
  });
});

describe('customers and payments', () => {
  it('validates a customer document and finds customers by cpfCnpj', async () => {
    const bad = await call('POST', '/v3/customers', { name: 'X', cpfCnpj: '12345678900' });
    expect(bad.status).toBe(400);
    expect(bad.json['errors'][0].code).toBe('invalid_cpfCnpj');
    await call('POST', '/v3/customers', { name: 'Maria Souza', cpfCnpj: '529.982.247-25' });
    const found = await call('GET', `/v3/customers?cpfCnpj=${CPF}`);
    expect(found.json).toMatchObject({ object: 'list', data: [expect.objectContaining({ cpfCnpj: CPF, personType: 'FISICA' })] });
  });

  it('creates a Pix charge with exact decimal amounts and a valid BR Code', async () => {
    const payment = await newPayment();
    expect(payment.text).toContain('"value":100.90');
    expect(payment.json).toMatchObject({ object: 'payment', status: 'PENDING', billingType: 'PIX', deleted: false });
    expect(payment.json['id']).toMatch(/^pay_\d+$/);
    const qr = await call('GET', `/v3/payments/${payment.json['id']}/pixQrCode`);
    const parsed = parsePix(qr.json['payload']);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(Buffer.from(qr.json['encodedImage'], 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(qr.json['expirationDate']).toMatch(/^\d{4}-\d{2}-\d{2} 23:59:59$/);
  });

  it('rejects invalid values and past due dates with Asaas error bodies', async () => {
    const customer = await call('POST', '/v3/customers', { name: 'Maria Souza', cpfCnpj: CPF });
    const base = { customer: customer.json['id'], billingType: 'PIX', dueDate: tomorrow() };
    expect((await call('POST', '/v3/payments', { ...base })).json['errors'][0].code).toBe('invalid_value');
    expect((await call('POST', '/v3/payments', '{"value":1.001}')).status).toBe(400);
    expect((await call('POST', '/v3/payments', { ...base, value: 10, dueDate: '2000-01-01' })).json['errors'][0].code).toBe('invalid_dueDate');
    expect((await call('POST', '/v3/payments', { ...base, value: 10, customer: 'cus_000000000000' })).json['errors'][0].code).toBe('invalid_customer');
    expect((await call('POST', '/v3/payments', '{not json')).status).toBe(400);
  });

  it('keeps accounts apart, lists by externalReference and removes unpaid charges', async () => {
    const payment = await newPayment(KEY, { externalReference: 'order-77' });
    const id = payment.json['id'] as string;
    expect((await call('GET', `/v3/payments/${id}`, undefined, OTHER_KEY)).status).toBe(404);
    expect((await call('GET', '/v3/payments?externalReference=order-77')).json['data']).toHaveLength(1);
    expect((await call('DELETE', `/v3/payments/${id}`)).json).toEqual({ deleted: true, id });
    expect((await call('GET', `/v3/payments/${id}`)).json).toMatchObject({ deleted: true });
    expect((await call('GET', '/v3/payments?externalReference=order-77')).json['data']).toHaveLength(0);
    expect((await ctl('POST', `/__control/charges/${id}/pay`)).status).toBe(409);
  });
});

describe('webhooks', () => {
  it('delivers PAYMENT_RECEIVED with the authToken header, retrying until a 200', async () => {
    const authToken = 'a'.repeat(16) + 'B'.repeat(24);
    const created = await call('POST', '/v3/webhooks', {
      name: 'spec', url: receiverUrl, email: 'ops@example.com', sendType: 'SEQUENTIALLY', enabled: true, interrupted: false, authToken, events: ['PAYMENT_RECEIVED'],
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ hasAuthToken: true, events: ['PAYMENT_RECEIVED'] });
    expect(created.text).not.toContain(authToken);
    const payment = await newPayment();
    received.length = 0;
    failNext = 1;
    expect((await ctl('POST', `/__control/charges/${payment.json['id']}/pay`)).status).toBe(200);
    await emulator.webhooksIdle();
    expect(received).toHaveLength(2);
    const last = received[1]!;
    expect(last.url).toBe('/hooks/asaas?hmac=abc');
    expect(last.headers['asaas-access-token']).toBe(authToken);
    const event = JSON.parse(last.body) as Record<string, any>;
    expect(event).toMatchObject({ event: 'PAYMENT_RECEIVED', payment: { id: payment.json['id'], status: 'RECEIVED' } });
    expect(event['id']).toMatch(/^evt_[0-9a-f]{32}&\d+$/);
    expect(last.body).toContain('"value":100.90');
    expect((await ctl('POST', `/__control/charges/${payment.json['id']}/pay`)).status).toBe(409);
    expect((await ctl('POST', '/__control/charges/pay_404/pay')).status).toBe(404);
    const paid = await call('GET', `/v3/payments/${payment.json['id']}`);
    const transaction = await call('GET', `/v3/pix/transactions/${paid.json['pixTransaction']}`);
    expect(transaction.json['endToEndIdentifier']).toMatch(/^E19540550\d{12}[A-Za-z0-9]{11}$/);
  });

  it('refuses short auth tokens', async () => {
    const answer = await call('POST', '/v3/webhooks', { name: 'x', url: receiverUrl, sendType: 'SEQUENTIALLY', authToken: 'short', events: ['PAYMENT_RECEIVED'] });
    expect(answer.json['errors'][0].code).toBe('invalid_authToken');
  });
});

describe('control: faults, stats, reset', () => {
  it('answers 500 and 429 with Asaas bodies and RateLimit headers, per account', async () => {
    await ctl('POST', '/__control/faults', { account: KEY, error_rate: 1 });
    const failed = await call('GET', '/v3/customers');
    expect(failed.status).toBe(500);
    expect(failed.json['errors'][0]).toHaveProperty('code');
    expect((await call('GET', '/v3/customers', undefined, OTHER_KEY)).status).toBe(200);
    await ctl('POST', '/__control/faults', { account: KEY, rate_limit_rate: 1 });
    const limited = await call('GET', '/v3/customers');
    expect(limited.status).toBe(429);
    expect(limited.header('ratelimit-remaining')).toBe('0');
  });

  it('can fail only charge creation', async () => {
    await ctl('POST', '/__control/faults', { account: KEY, only: 'create_payment', error_rate: 1 });
    const customer = await call('POST', '/v3/customers', { name: 'Maria Souza', cpfCnpj: CPF });
    expect(customer.status).toBe(200);
    expect((await call('POST', '/v3/payments', { customer: customer.json['id'], billingType: 'PIX', value: 1, dueDate: tomorrow() })).status).toBe(500);
  });

  it('drops connections during an outage', async () => {
    await ctl('POST', '/__control/faults', { outage: true });
    await expect(call('GET', '/v3/customers')).rejects.toThrow();
  });

  it('counts charges per account and resets', async () => {
    await ctl('POST', '/__control/reset');
    await newPayment();
    const stats = (await ctl('GET', '/__control/stats')).json;
    expect(stats).toMatchObject({ charges_created: 1, webhooks_sent: 0, webhooks_failed: 0, faults_injected: 0 });
    expect(Object.values(stats['by_account'])).toEqual([1]);
    expect(JSON.stringify(stats)).not.toContain(KEY);
    expect((await ctl('GET', '/__control/health')).status).toBe(200);
  });
});

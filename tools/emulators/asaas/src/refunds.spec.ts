/** The emulator's estorno routes over plain HTTP: partial and total, listing, refusals, webhooks. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

const KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmVtdWxhdG9yLXJm';
let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
const events: string[] = [];

async function call(method: 'GET' | 'POST', path: string, body?: string) {
  const response = await request(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', access_token: KEY, 'user-agent': 'orquestra-spec' },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function receivedPayment(value: string): Promise<string> {
  const customer = await call('POST', '/v3/customers', JSON.stringify({ name: 'Maria Souza', cpfCnpj: '52998224725' }));
  const payment = await call('POST', '/v3/payments', `{"customer":"${customer.json['id']}","billingType":"PIX","value":${value},"dueDate":"${tomorrow()}"}`);
  expect((await fetch(`${control}/__control/charges/${payment.json['id']}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
  return payment.json['id'] as string;
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], refundSettleMs: 50, webhooks: { retries: 0 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push((JSON.parse(body) as { event: string }).event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const hook = await call('POST', '/v3/webhooks', JSON.stringify({ name: 'r', url, sendType: 'SEQUENTIALLY', enabled: true, interrupted: false, events: ['PAYMENT_REFUNDED', 'PAYMENT_PARTIALLY_REFUNDED'] }));
  expect(hook.status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('POST /v3/payments/:id/refund', () => {
  it('refunds part (RECEIVED, refunds listed PENDING → DONE, PAYMENT_PARTIALLY_REFUNDED), then the rest (REFUNDED)', async () => {
    const id = await receivedPayment('100.90');
    const partial = await call('POST', `/v3/payments/${id}/refund`, '{"value":10.45,"description":"Item devolvido"}');
    expect(partial.status).toBe(200);
    expect(partial.json).toMatchObject({ id, status: 'RECEIVED', refunds: [{ status: 'PENDING', description: 'Item devolvido' }] });
    // Amounts are exact decimals on the wire.
    expect(partial.text).toContain('"value":10.45');
    // DONE once the emulator's settle timer fired: polled for.
    const list = await eventuallyExpect(async () => {
      const read = await call('GET', `/v3/payments/${id}/refunds`);
      expect(read.json).toMatchObject({ object: 'list', totalCount: 1, data: [{ status: 'DONE' }] });
      return read;
    });
    expect(list.json['data'][0].transactionReceiptUrl).toMatch(/^https:/);

    const rest = await call('POST', `/v3/payments/${id}/refund`, '{}');
    expect(rest.json).toMatchObject({ status: 'REFUNDED' });
    expect(rest.text).toContain('"value":90.45');
    // The webhooks go out when the settle timer fires, over HTTP: polled for.
    await eventuallyExpect(async () => {
      await emulator.webhooksIdle();
      expect(events).toEqual(expect.arrayContaining(['PAYMENT_PARTIALLY_REFUNDED', 'PAYMENT_REFUNDED']));
    });
  });

  it('refuses more than is left (invalid_value), a bad value, and a charge not received (invalid_action)', async () => {
    const id = await receivedPayment('5.00');
    expect((await call('POST', `/v3/payments/${id}/refund`, '{"value":5.01}')).json).toMatchObject({ errors: [{ code: 'invalid_value' }] });
    expect((await call('POST', `/v3/payments/${id}/refund`, '{"value":"abc"}')).status).toBe(400);
    const customer = await call('POST', '/v3/customers', JSON.stringify({ name: 'Ana', cpfCnpj: '52998224725' }));
    const open = await call('POST', '/v3/payments', `{"customer":"${customer.json['id']}","billingType":"PIX","value":5.00,"dueDate":"${tomorrow()}"}`);
    expect((await call('POST', `/v3/payments/${open.json['id']}/refund`, '{}')).json).toMatchObject({ errors: [{ code: 'invalid_action' }] });
  });
});

/** The emulator's BOLETO charges over plain HTTP: the slip, identificationField, the slip page, payment by the control route. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { dueFactor, isValidDigitableLine } from '../../kit';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';

jest.setTimeout(30_000);

const KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmVtdWxhdG9yLWJvbGV0bw';
let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
const deliveries: { event: string; payment: Record<string, unknown> }[] = [];

async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: string) {
  const response = await request(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', access_token: KEY, 'user-agent': 'orquestra-spec' },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function newCharge(billingType: string, value = '250.75'): Promise<Record<string, any>> {
  const customer = await call('POST', '/v3/customers', JSON.stringify({ name: 'Maria Souza', cpfCnpj: '52998224725' }));
  const payment = await call('POST', '/v3/payments', `{"customer":"${customer.json['id']}","billingType":"${billingType}","value":${value},"dueDate":"${inDays(3)}"}`);
  expect(payment.status).toBe(200);
  return payment.json;
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], webhooks: { retries: 0 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      deliveries.push(JSON.parse(body) as { event: string; payment: Record<string, unknown> });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const hook = await call('POST', '/v3/webhooks', JSON.stringify({ name: 'b', url, sendType: 'SEQUENTIALLY', enabled: true, interrupted: false, events: ['PAYMENT_RECEIVED'] }));
  expect(hook.status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('BOLETO charges', () => {
  it('creates a PENDING boleto with bankSlipUrl and nossoNumero, and answers its linha digitável (valid check digits, the amount and due factor in it)', async () => {
    const payment = await newCharge('BOLETO');
    expect(payment).toMatchObject({ billingType: 'BOLETO', status: 'PENDING', dueDate: inDays(3), pixTransaction: null });
    expect(payment['bankSlipUrl']).toBe(`${control}/b/pdf/${String(payment['id']).slice(4)}`);
    const field = await call('GET', `/v3/payments/${payment['id']}/identificationField`);
    expect(field.status).toBe(200);
    expect(Object.keys(field.json).sort()).toEqual(['barCode', 'identificationField', 'nossoNumero']);
    expect(field.json['nossoNumero']).toBe(payment['nossoNumero']);
    expect(isValidDigitableLine(field.json['identificationField'])).toBe(true);
    expect(field.json['identificationField'].slice(-14)).toBe(`${dueFactor(inDays(3))}0000025075`);
    expect(field.json['barCode']).toMatch(/^\d{44}$/);
    // The slip page shows the same line; the invoice page has no card form for a boleto.
    const slip = await fetch(payment['bankSlipUrl']);
    expect(slip.status).toBe(200);
    expect(await slip.text()).toContain(field.json['identificationField']);
    const invoice = await (await fetch(payment['invoiceUrl'])).text();
    expect(invoice).toContain(field.json['identificationField']);
    expect(invoice).not.toContain('card-number');
  });

  it('refuses a Pix QR code of a boleto, the identification field of a Pix charge, and of a removed boleto', async () => {
    const boleto = await newCharge('BOLETO');
    expect((await call('GET', `/v3/payments/${boleto['id']}/pixQrCode`)).status).toBe(400);
    const pix = await newCharge('PIX');
    expect(pix['bankSlipUrl']).toBeNull();
    expect((await call('GET', `/v3/payments/${pix['id']}/identificationField`)).json).toMatchObject({ errors: [{ code: 'invalid_billingType' }] });
    expect((await call('DELETE', `/v3/payments/${boleto['id']}`)).json).toMatchObject({ deleted: true });
    expect((await call('GET', `/v3/payments/${boleto['id']}/identificationField`)).status).toBe(404);
  });

  it('is paid by the control route: RECEIVED with its payment date, no Pix transaction, PAYMENT_RECEIVED sent, then not payable again', async () => {
    const payment = await newCharge('BOLETO', '99.90');
    const pay = () => fetch(`${control}/__control/charges/${payment['id']}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await pay()).status).toBe(200);
    const read = await call('GET', `/v3/payments/${payment['id']}`);
    expect(read.json).toMatchObject({ status: 'RECEIVED', billingType: 'BOLETO', pixTransaction: null });
    expect(read.json['paymentDate']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await emulator.webhooksIdle();
    expect(deliveries).toEqual(expect.arrayContaining([expect.objectContaining({ event: 'PAYMENT_RECEIVED', payment: expect.objectContaining({ id: payment['id'], billingType: 'BOLETO' }) })]));
    expect((await pay()).status).toBe(409);
  });
});

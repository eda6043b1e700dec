/** The emulator's refunds over plain HTTP: partial and full DELETE on paid charges, boleto bank account, transactions list, events, dashboard. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPagarmeEmulator, type PagarmeEmulator } from './pagarme-emulator';

jest.setTimeout(30_000);

const KEY = 'sk_test_refundSpecKey01';
const OTHER = 'sk_test_refundSpecKey02';
type Json = Record<string, any>;

let emulator: PagarmeEmulator;
let api: string;
let control: string;
let receiver: Server;
const hooks: Json[] = [];
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function call(method: string, path: string, body?: unknown, key = KEY, headers: Record<string, string> = {}) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: basic(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

async function controlCall(path: string, body: unknown = {}) {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

const customer = {
  name: 'Maria Aparecida Souza',
  email: 'maria@example.com',
  document: '52998224725',
  type: 'individual',
  phones: { mobile_phone: { country_code: '55', area_code: '11', number: '999998888' } },
  address: { line_1: '100, Rua Augusta, Consolação', zip_code: '01304000', city: 'São Paulo', state: 'SP', country: 'BR' },
};
const BANK_ACCOUNT = { holder_name: 'Maria Aparecida Souza', holder_document: '52998224725', bank: '341', branch_number: '1234', account_number: '12345', account_check_digit: '6', type: 'checking' };

let counter = 0;
async function paidCharge(method: 'pix' | 'boleto', amount = 10_000): Promise<string> {
  counter += 1;
  const payment = method === 'pix' ? { payment_method: 'pix', pix: { expires_in: 600 } } : { payment_method: 'boleto', boleto: { due_at: '2099-01-10T02:59:59Z', instructions: 'Não receber após o vencimento' } };
  const created = await call('POST', '/orders', { code: `pay_rf_${counter}`, items: [{ amount, description: 'Pedido', quantity: 1, code: `pay_rf_${counter}` }], customer, payments: [payment], metadata: {} });
  expect(created.status).toBe(200);
  const chargeId = created.body['charges'][0].id as string;
  expect((await controlCall(`/__control/charges/${chargeId}/pay`)).status).toBe(200);
  return chargeId;
}

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }, { secret_key: OTHER }], expirySweepMs: 0, webhooks: { retries: 0 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hooks.push(JSON.parse(body) as Json);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks?hmac=s`;
  expect((await controlCall('/__control/webhook', { account: KEY, url, events: ['charge.paid', 'charge.refunded', 'charge.partial_canceled', 'order.canceled'] })).status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('DELETE /charges/:id on a paid charge', () => {
  it('refunds part (charge stays paid, charge.partial_canceled), then the rest (canceled, charge.refunded + order.canceled)', async () => {
    const id = await paidCharge('pix');
    const part = await call('DELETE', `/charges/${id}`, { amount: 2500, operation_reference: 're_part' }, KEY, { 'idempotency-key': 're_part' });
    expect(part).toMatchObject({ status: 200, body: { status: 'paid', canceled_amount: 2500 } });
    const rest = await call('DELETE', `/charges/${id}`, { operation_reference: 're_rest' });
    expect(rest.body).toMatchObject({ status: 'canceled', canceled_amount: 10_000, last_transaction: { status: 'refunded' } });
    const transactions = await call('GET', `/charges/${id}/transactions`);
    expect(transactions.body['data']).toEqual([
      expect.objectContaining({ transaction_type: 'pix', status: 'refunded' }),
      expect.objectContaining({ amount: 2500, status: 'refunded', operation_type: 'cancel', metadata: { operation_reference: 're_part' } }),
      expect.objectContaining({ amount: 7500, status: 'refunded', metadata: { operation_reference: 're_rest' } }),
    ]);
    await emulator.webhooksIdle();
    expect(hooks.filter((h) => h['data'].id === id || h['data'].charges?.[0]?.id === id).map((h) => h['type'])).toEqual(['charge.paid', 'charge.partial_canceled', 'charge.refunded', 'order.canceled']);
  });

  it('replays a repeated idempotency-key without refunding twice, and refuses more than is left', async () => {
    const id = await paidCharge('pix', 3_000);
    const first = await call('DELETE', `/charges/${id}`, { amount: 1000, operation_reference: 're_same' }, KEY, { 'idempotency-key': 're_same' });
    const again = await call('DELETE', `/charges/${id}`, { amount: 1000, operation_reference: 're_same' }, KEY, { 'idempotency-key': 're_same' });
    expect(again.body['canceled_amount']).toBe(first.body['canceled_amount']);
    expect((await call('GET', `/charges/${id}/transactions`)).body['data']).toHaveLength(2);
    expect(await call('DELETE', `/charges/${id}`, { amount: 2001 })).toMatchObject({ status: 422, body: { errors: { amount: [expect.any(String)] } } });
    expect((await call('DELETE', `/charges/${id}`, { amount: 100 }, OTHER)).status).toBe(404);
  });

  it('needs the payer’s bank account to refund a paid boleto', async () => {
    const id = await paidCharge('boleto', 5_000);
    expect(await call('DELETE', `/charges/${id}`, { amount: 1000 })).toMatchObject({ status: 422, body: { errors: { bank_account: [expect.any(String)] } } });
    expect((await call('DELETE', `/charges/${id}`, { amount: 1000, bank_account: BANK_ACCOUNT })).body).toMatchObject({ status: 'paid', canceled_amount: 1000 });
  });

  it('makes dashboard refunds (boleto included: the dashboard asks the bank account) without operation_reference', async () => {
    const id = await paidCharge('boleto', 5_000);
    const dashboard = await controlCall(`/__control/charges/${id}/refund`, { amount: 5000 });
    expect(dashboard.body).toMatchObject({ status: 'canceled', canceled_amount: 5000 });
    expect((await call('GET', `/charges/${id}/transactions`)).body['data'][1]).toMatchObject({ amount: 5000, metadata: {} });
    expect((await controlCall(`/__control/charges/${id}/refund`, { amount: 1 })).status).toBe(409);
  });
});

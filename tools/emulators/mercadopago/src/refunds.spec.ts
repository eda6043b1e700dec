/** The emulator's refund routes over plain HTTP: documented errors, idempotency, listing, isolation. */
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from './mercadopago-emulator';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

const A = { access_token: 'TEST-3333333333333333-031014-cccccccccccccccccccccccccccccccc-1000000003', webhook_secret: 'secret_c' };
const B = { access_token: 'TEST-4444444444444444-031014-dddddddddddddddddddddddddddddddd-1000000004', webhook_secret: 'secret_d' };

let emulator: MercadoPagoEmulator;
let api: string;
let control: string;

async function call(method: string, path: string, options: { token?: string; body?: unknown; key?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${options.token ?? A.access_token}` };
  if (options.key) headers['x-idempotency-key'] = options.key;
  const response = await fetch(`${api}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as any };
}

async function paidPayment(amount: string): Promise<number> {
  const created = await fetch(`${api}/v1/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${A.access_token}`, 'x-idempotency-key': `pay-${Math.random()}` },
    body: `{"transaction_amount":${amount},"payment_method_id":"pix","payer":{"email":"maria@example.com"}}`,
  });
  const payment = (await created.json()) as { id: number };
  expect((await fetch(`${control}/__control/charges/${payment.id}/pay`, { method: 'POST' })).status).toBe(200);
  return payment.id;
}

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [A, B], refundSettleMs: 50 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
});

afterAll(async () => {
  await emulator?.stop();
});

describe('POST /v1/payments/:id/refunds', () => {
  it('requires X-Idempotency-Key (4292) and a positive numeric amount (4040 / 4041)', async () => {
    const id = await paidPayment('10.00');
    expect((await call('POST', `/v1/payments/${id}/refunds`, { body: { amount: 1 } })).body.cause[0].code).toBe(4292);
    expect((await call('POST', `/v1/payments/${id}/refunds`, { key: 'k1', body: { amount: -1 } })).body.cause[0].code).toBe(4040);
    expect((await call('POST', `/v1/payments/${id}/refunds`, { key: 'k2', body: { amount: '1' } })).body.cause[0].code).toBe(4041);
  });

  it('answers in_process, the same refund for a repeated key, then approved in the list and on the payment', async () => {
    const id = await paidPayment('10.00');
    const first = await call('POST', `/v1/payments/${id}/refunds`, { key: 'rf-1', body: { amount: 2.5 } });
    expect(first).toMatchObject({ status: 201, body: { payment_id: id, amount: 2.5, status: 'in_process' } });
    const again = await call('POST', `/v1/payments/${id}/refunds`, { key: 'rf-1', body: { amount: 2.5 } });
    expect(again.body.id).toBe(first.body.id);
    // Approved once the emulator's settle timer fired: polled for.
    await eventuallyExpect(async () => expect((await call('GET', `/v1/payments/${id}/refunds`)).body).toEqual([expect.objectContaining({ id: first.body.id, status: 'approved' })]));
    expect((await call('GET', `/v1/payments/${id}/refunds/${first.body.id}`)).body.status).toBe('approved');
    const payment = await call('GET', `/v1/payments/${id}`);
    expect(payment.body).toMatchObject({ status: 'approved', status_detail: 'partially_refunded', transaction_amount_refunded: 2.5 });
  });

  it('refunds everything left without amount (refunded/refunded), then refuses more', async () => {
    const id = await paidPayment('7.00');
    expect((await call('POST', `/v1/payments/${id}/refunds`, { key: 'rf-all', body: {} })).body.amount).toBe(7);
    await eventuallyExpect(async () => expect((await call('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'refunded', status_detail: 'refunded' }));
    expect((await call('POST', `/v1/payments/${id}/refunds`, { key: 'rf-more', body: { amount: 1 } })).status).toBe(400);
  });

  it('refuses more than is left with a 400 and another account’s payment with 404', async () => {
    const id = await paidPayment('3.00');
    const over = await call('POST', `/v1/payments/${id}/refunds`, { key: 'rf-over', body: { amount: 3.01 } });
    expect(over).toMatchObject({ status: 400, body: { error: 'bad_request', status: 400 } });
    expect((await call('POST', `/v1/payments/${id}/refunds`, { token: B.access_token, key: 'rf-b', body: { amount: 1 } })).status).toBe(404);
  });
});

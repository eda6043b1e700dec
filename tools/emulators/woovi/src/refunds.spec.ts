/** The emulator's refund routes over plain HTTP: by end-to-end id and by charge, idempotency, refusals. */
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

const APP = 'Q2xpZW50X0lkX2VtdWxhdG9yLXJmOnNlY3JldA==';
const OTHER = 'Q2xpZW50X0lkX2VtdWxhdG9yLW90aGVyOnNlY3JldA==';
let emulator: WooviEmulator;
let api: string;
let control: string;

async function call(method: string, url: string, body?: unknown, appId: string = APP) {
  const response = await fetch(url, {
    method,
    headers: { authorization: appId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

async function paidCharge(correlationID: string, value: number): Promise<string> {
  expect((await call('POST', `${api}/api/v1/charge`, { correlationID, value })).status).toBeLessThan(300);
  const paid = await call('POST', `${control}/__control/charges/${correlationID}/pay`, {});
  return paid.json['endToEndId'] as string;
}

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP, OTHER], refundSettleMs: 50 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
});

afterAll(async () => {
  await emulator?.stop();
});

describe('refunds', () => {
  it('refunds by end-to-end id, answers the same refund for a repeated correlationID, then CONFIRMED', async () => {
    const e2e = await paidCharge('rf-order-1', 1000);
    const body = { correlationID: 'rf-1', transactionEndToEndId: e2e, value: 300, comment: 'Item devolvido' };
    const first = await call('POST', `${api}/api/v1/refund`, body);
    expect(first).toMatchObject({ status: 200, json: { refund: { status: 'IN_PROCESSING', value: 300, correlationID: 'rf-1', comment: 'Item devolvido' } } });
    const again = await call('POST', `${api}/api/v1/refund`, body);
    expect(again.json['refund'].refundId).toBe(first.json['refund'].refundId);
    // CONFIRMED once the emulator's settle timer fired: polled for.
    await eventuallyExpect(async () => expect((await call('GET', `${api}/api/v1/refund/rf-1`)).json['refund'].status).toBe('CONFIRMED'));
    const list = await call('GET', `${api}/api/v1/charge/rf-order-1/refund`);
    expect(list.json['refunds']).toEqual([expect.objectContaining({ correlationID: 'rf-1', value: 300, status: 'CONFIRMED', endToEndId: expect.stringMatching(/^D/) })]);
  });

  it('refunds what is left by charge without value, then refuses more; other accounts cannot see it', async () => {
    await paidCharge('rf-order-2', 500);
    expect((await call('POST', `${api}/api/v1/charge/rf-order-2/refund`, { correlationID: 'rf-2a', value: 200 })).json['refund'].value).toBe(200);
    expect((await call('POST', `${api}/api/v1/charge/rf-order-2/refund`, { correlationID: 'rf-2b' })).json['refund'].value).toBe(300);
    const over = await call('POST', `${api}/api/v1/charge/rf-order-2/refund`, { correlationID: 'rf-2c', value: 1 });
    expect(over.status).toBe(400);
    expect(typeof over.json['error']).toBe('string');
    expect((await call('GET', `${api}/api/v1/refund/rf-2a`, undefined, OTHER)).status).toBe(400);
  });

  it('refuses a refund without correlationID, of an unknown transaction, and of an unpaid charge', async () => {
    expect((await call('POST', `${api}/api/v1/refund`, { transactionEndToEndId: 'E1', value: 1 })).status).toBe(400);
    expect((await call('POST', `${api}/api/v1/refund`, { correlationID: 'rf-3', transactionEndToEndId: 'E000', value: 1 })).json['error']).toMatch(/não encontrada/);
    expect((await call('POST', `${api}/api/v1/charge`, { correlationID: 'rf-order-3', value: 100 })).status).toBeLessThan(300);
    expect((await call('POST', `${api}/api/v1/charge/rf-order-3/refund`, { correlationID: 'rf-3b' })).json['error']).toMatch(/COMPLETED/);
  });
});

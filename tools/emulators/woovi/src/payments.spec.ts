/**
 * Pix Out in the Woovi emulator over HTTP: a payment created without moving money, an approval
 * made whose answer is withheld, the create's own validation, and a restart that keeps payments
 * and the balance (state file); a reset clears the payments, the balance stays (kit PayoutBook).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';

const APP_ID = 'd29vdmktcGF5bWVudHMtc3BlYw';
let dir: string;
let emulator: WooviEmulator;
let api: string;
let control: string;

async function start(): Promise<void> {
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0 }, stateFile: join(dir, 'woovi.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/api/v1`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json', authorization: APP_ID }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (path: string, body: unknown, method = 'POST') => (await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;
const available = async () => (await call('GET', '/account/')).json['accounts'][0].balance.available as number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'woovi-payments-'));
  await start();
});

afterAll(async () => {
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Woovi emulator Pix Out', () => {
  it('creates a payment without moving money; an approval is made though its answer is withheld', async () => {
    expect(await ctl('/__control/balance/credit', { account: APP_ID, amount: 10_000 })).toBe(200);
    const created = await call('POST', '/payment', { value: 1_250, destinationAlias: 'a@b.com', destinationAliasType: 'EMAIL', correlationID: 'po_late' });
    expect(created).toMatchObject({ status: 200, json: { payment: { status: 'CREATED', value: 1_250, correlationID: 'po_late' } } });
    expect(await available()).toBe(10_000);
    expect(await ctl('/__control/transfers/behaviour', { account: APP_ID, outcome: 'hang' })).toBe(200);
    expect(await ctl('/__control/transfers/withhold-answer', { account: APP_ID })).toBe(200);
    await expect(call('POST', '/payment/approve', { correlationID: 'po_late' })).rejects.toThrow();
    expect((await call('GET', '/payment/po_late')).json).toMatchObject({ payment: { status: 'APPROVED' } });
    expect(await available()).toBe(8_750);
    expect(await call('POST', '/payment/approve', { correlationID: 'po_late' })).toMatchObject({ status: 200, json: { payment: { status: 'APPROVED' } } });
    expect(await available()).toBe(8_750);
  });

  it('refuses an unknown key type, and a correlationID reused for another payment', async () => {
    expect(await call('POST', '/payment', { value: 1, destinationAlias: 'x', destinationAliasType: 'EVP', correlationID: 'po_x' })).toMatchObject({ status: 400, json: { error: 'destinationAliasType inválido' } });
    expect(await call('POST', '/payment', { value: 999, destinationAlias: 'a@b.com', destinationAliasType: 'EMAIL', correlationID: 'po_late' })).toMatchObject({ status: 400 });
    expect(await call('GET', '/payment/po_never')).toMatchObject({ status: 400, json: { error: 'Pagamento não encontrado' } });
  });

  it('keeps payments and the balance across a restart; a reset clears the payments only', async () => {
    const before = await call('GET', '/payment/po_late');
    await emulator.stop();
    await start();
    expect((await call('GET', '/payment/po_late')).json).toEqual(before.json);
    expect(await available()).toBe(8_750);
    expect(await ctl('/__control/reset', {})).toBe(204);
    expect((await call('GET', '/payment/po_late')).status).toBe(400);
    expect(await available()).toBe(8_750);
  });
});

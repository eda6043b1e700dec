/**
 * Transfers in the Asaas emulator over HTTP: a transfer made whose answer is withheld, a key type
 * Asaas does not know, a refund taken from the balance, and a restart that keeps transfers and the
 * balance (state file); a reset clears the transfers, the balance stays (kit PayoutBook).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';

const KEY = '$aact_hmlg_000dHJhbnNmZXJzLWVtdWxhdG9yLXNwZWM';
let dir: string;
let emulator: AsaasEmulator;
let api: string;
let control: string;

async function start(): Promise<void> {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], webhooks: { retries: 0 }, stateFile: join(dir, 'asaas.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/v3`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json', access_token: KEY, 'user-agent': 'orquestra-spec' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (path: string, body: unknown, method = 'POST') => {
  const response = await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return response.status;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'asaas-transfers-'));
  await start();
});

afterAll(async () => {
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Asaas emulator transfers', () => {
  it('makes a transfer whose answer it withholds (the connection closes unanswered)', async () => {
    expect(await ctl('/__control/balance/credit', { account: KEY, amount: 10_000 })).toBe(200);
    expect(await ctl('/__control/transfers/withhold-answer', { account: KEY, delay_ms: 100 })).toBe(200);
    await expect(call('POST', '/transfers', { value: 12.5, pixAddressKey: 'a@b.com', pixAddressKeyType: 'EMAIL', externalReference: 'po_lost' })).rejects.toThrow();
    const listed = await call('GET', '/transfers');
    expect(listed.json['data']).toEqual([expect.objectContaining({ value: 12.5, externalReference: 'po_lost', status: 'BANK_PROCESSING' })]);
    expect((await call('GET', '/finance/balance')).json).toEqual({ balance: 87.5 });
    expect((await call('POST', '/transfers', { value: 87.51, pixAddressKey: 'a@b.com', pixAddressKeyType: 'EMAIL' })).json).toMatchObject({ errors: [{ code: 'invalid_action' }] });
  });

  it('refuses a key type Asaas does not know, and a bank account destination', async () => {
    expect(await call('POST', '/transfers', { value: 1, pixAddressKey: 'x', pixAddressKeyType: 'RANDOM' })).toMatchObject({ status: 400, json: { errors: [{ code: 'invalid_pixAddressKeyType' }] } });
    expect(await call('POST', '/transfers', { value: 1, bankAccount: {} })).toMatchObject({ status: 400, json: { errors: [{ code: 'invalid_bankAccount' }] } });
  });

  it('keeps transfers and the balance across a restart; a reset clears the transfers only', async () => {
    const before = await call('GET', '/transfers?limit=10');
    expect(before.json['totalCount']).toBe(1);
    await emulator.stop();
    await start();
    expect((await call('GET', '/transfers?limit=10')).json['data']).toEqual(before.json['data']);
    expect((await call('GET', '/finance/balance')).json).toEqual({ balance: 87.5 });
    expect(await ctl('/__control/reset', {})).toBe(204);
    expect((await call('GET', '/transfers')).json['totalCount']).toBe(0);
    expect((await call('GET', '/finance/balance')).json).toEqual({ balance: 87.5 });
  });
});

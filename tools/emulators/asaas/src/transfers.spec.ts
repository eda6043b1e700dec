/**
 * Transfers in the Asaas emulator over HTTP: an answer held back then sent late, a transfer to a
 * key type Asaas does not know, and a restart that keeps transfers and credits (state file), which
 * a reset clears.
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
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], webhooks: { retries: 0 }, transferSettleMs: 50, stateFile: join(dir, 'asaas.json') });
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
  it('holds the answer of a transfer it made for answer_delay_ms, then sends it', async () => {
    expect(await ctl('/__control/balance', { account: KEY, credit_cents: 10_000 })).toBe(200);
    expect(await ctl('/__control/transfers/behaviour', { account: KEY, answer: 'lost', answer_delay_ms: 300 })).toBe(200);
    const started = Date.now();
    const answer = await call('POST', '/transfers', { value: 12.5, pixAddressKey: 'a@b.com', pixAddressKeyType: 'EMAIL', externalReference: 'po_late' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(answer).toMatchObject({ status: 200, json: { value: 12.5, externalReference: 'po_late' } });
    expect(await ctl('/__control/transfers/behaviour', { account: KEY }, 'DELETE')).toBe(204);
    expect((await call('GET', '/finance/balance')).json).toEqual({ balance: 87.5 });
  });

  it('refuses a key type Asaas does not know, and a bank account destination', async () => {
    expect(await call('POST', '/transfers', { value: 1, pixAddressKey: 'x', pixAddressKeyType: 'RANDOM' })).toMatchObject({ status: 400, json: { errors: [{ code: 'invalid_pixAddressKeyType' }] } });
    expect(await call('POST', '/transfers', { value: 1, bankAccount: {} })).toMatchObject({ status: 400, json: { errors: [{ code: 'invalid_bankAccount' }] } });
  });

  it('keeps transfers and credits across a restart; a reset clears them', async () => {
    const before = await call('GET', '/transfers?limit=10');
    expect(before.json['totalCount']).toBe(1);
    await emulator.stop();
    await start();
    expect((await call('GET', '/transfers?limit=10')).json['data']).toEqual(before.json['data']);
    expect((await call('GET', '/finance/balance')).json).toEqual({ balance: 87.5 });
    expect(await ctl('/__control/reset', {})).toBe(204);
    expect((await call('GET', '/transfers')).json['totalCount']).toBe(0);
    expect((await call('GET', '/finance/balance')).json).toEqual({ balance: 0 });
  });
});

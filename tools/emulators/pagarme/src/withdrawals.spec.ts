/**
 * Withdrawals in the Pagar.me emulator over HTTP: a withheld answer whose idempotency key already
 * replays the withdrawal made, another account's recipient refused, and a restart that keeps
 * withdrawals and the balance (state file); a reset clears the withdrawals, the balance stays.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPagarmeEmulator, type PagarmeEmulator } from './pagarme-emulator';

const KEY = 'sk_test_withdrawalsSpec01';
const OTHER = 'sk_test_withdrawalsSpec02';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
let dir: string;
let emulator: PagarmeEmulator;
let api: string;
let control: string;

async function start(): Promise<void> {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }, { secret_key: OTHER }], stateFile: join(dir, 'pagarme.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, key = KEY) => {
  const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json', authorization: basic(key), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (path: string, body: unknown, method = 'POST') => (await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagarme-withdrawals-'));
  await start();
});

afterAll(async () => {
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Pagar.me emulator withdrawals', () => {
  it('a withdrawal whose answer is lost is replayed by its idempotency key, made once', async () => {
    const recipient = (await call('GET', '/recipients/default')).json['id'] as string;
    expect(recipient).toMatch(/^rp_/);
    expect(await ctl('/__control/balance/credit', { account: KEY, amount: 10_000 })).toBe(200);
    expect(await ctl('/__control/transfers/behaviour', { account: KEY, outcome: 'hang' })).toBe(200);
    expect(await ctl('/__control/transfers/withhold-answer', { account: KEY })).toBe(200);
    const lost = call('POST', `/recipients/${recipient}/withdrawals`, { amount: 1_250 }, { 'idempotency-key': 'po_lost' });
    await expect(lost).rejects.toThrow();
    const replay = await call('POST', `/recipients/${recipient}/withdrawals`, { amount: 1_250 }, { 'idempotency-key': 'po_lost' });
    expect(replay).toMatchObject({ status: 200, json: { amount: 1_250, status: 'processing' } });
    expect((await call('GET', `/recipients/${recipient}/withdrawals`)).json['paging']).toEqual({ total: 1 });
    expect((await call('GET', `/recipients/${recipient}/balance`)).json['available_amount']).toBe(8_750);
  });

  it("refuses another account's recipient", async () => {
    const mine = (await call('GET', '/recipients/default')).json['id'] as string;
    expect((await call('GET', `/recipients/${mine}/balance`, undefined, {}, OTHER)).status).toBe(404);
  });

  it('keeps withdrawals and the balance across a restart; a reset clears the withdrawals only', async () => {
    const recipient = (await call('GET', '/recipients/default')).json['id'] as string;
    const before = await call('GET', `/recipients/${recipient}/withdrawals`);
    await emulator.stop();
    await start();
    expect((await call('GET', `/recipients/${recipient}/withdrawals`)).json).toEqual(before.json);
    expect((await call('GET', `/recipients/${recipient}/balance`)).json['available_amount']).toBe(8_750);
    expect(await ctl('/__control/reset', {})).toBe(204);
    expect((await call('GET', `/recipients/${recipient}/withdrawals`)).json['paging']).toEqual({ total: 0 });
    expect((await call('GET', `/recipients/${recipient}/balance`)).json['available_amount']).toBe(8_750);
  });
});

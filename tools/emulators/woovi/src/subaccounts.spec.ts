/**
 * Subaccounts in the Woovi emulator over HTTP: required fields, a repeated Pix key answering the
 * first, another account's subaccount unseen, and a restart that keeps subaccounts and balances.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';

const APP_ID = 'QXBwSWRfc3ViYWNjb3VudHNfc3BlYw';
const OTHER = 'QXBwSWRfb3V0cmFfY29udGE';
let dir: string;
let emulator: WooviEmulator;
let api: string;
let control: string;

async function start(): Promise<void> {
  emulator = createWooviEmulator({ accounts: [APP_ID, OTHER], webhooks: { retries: 0 }, stateFile: join(dir, 'woovi.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/api/v1`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, body?: unknown, appId = APP_ID) => {
  const response = await fetch(`${api}${path}`, { method, headers: { authorization: appId, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const credit = async (pixKey: string, amount: number) =>
  (await fetch(`${control}/__control/subaccounts/${encodeURIComponent(pixKey)}/credit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: APP_ID, amount }) })).status;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'woovi-subaccounts-'));
  await start();
});

afterAll(async () => {
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Woovi emulator subaccounts', () => {
  it('requires name and a well-formed Pix key', async () => {
    expect(await call('POST', '/subaccount', { pixKey: 'ana@exemplo.com' })).toEqual({ status: 400, json: { error: 'name é obrigatório' } });
    expect(await call('POST', '/subaccount', { name: 'Ana' })).toEqual({ status: 400, json: { error: 'pixKey é obrigatório' } });
    expect(await call('POST', '/subaccount', { name: 'Ana', pixKey: '123' })).toEqual({ status: 400, json: { error: 'Chave Pix inválida' } });
  });

  it('a repeated key answers the first subaccount unchanged; other accounts do not see it', async () => {
    expect(await call('POST', '/subaccount', { name: 'Ana', pixKey: 'ana@exemplo.com' })).toEqual({ status: 200, json: { SubAccount: { name: 'Ana', pixKey: 'ana@exemplo.com', balance: 0 } } });
    expect((await call('POST', '/subaccount', { name: 'Outro nome', pixKey: 'ana@exemplo.com' })).json).toEqual({ SubAccount: { name: 'Ana', pixKey: 'ana@exemplo.com', balance: 0 } });
    expect((await call('GET', '/subaccount')).json['pageInfo']).toMatchObject({ totalCount: 1 });
    expect(await call('GET', '/subaccount/ana%40exemplo.com', undefined, OTHER)).toEqual({ status: 400, json: { error: 'Subconta não encontrada' } });
  });

  it('keeps subaccounts and balances across a restart; a debit never goes below zero', async () => {
    expect(await credit('ana@exemplo.com', 1_500)).toBe(200);
    await emulator.stop();
    await start();
    expect((await call('GET', '/subaccount/ana%40exemplo.com')).json).toEqual({ SubAccount: { name: 'Ana', pixKey: 'ana@exemplo.com', balance: 1_500 } });
    expect(await credit('ana@exemplo.com', -2_000)).toBe(409);
    expect(await credit('ninguem@exemplo.com', 10)).toBe(404);
  });
});

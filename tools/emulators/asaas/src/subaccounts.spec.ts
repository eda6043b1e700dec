/**
 * Subaccounts in the Asaas emulator over HTTP: the required fields refused as Asaas does, the
 * apiKey answered once and working as the subaccount's own key (status, balance), the control
 * route's approval and its ACCOUNT_STATUS webhook to the root account, and a restart that keeps them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';

jest.setTimeout(30_000);

const KEY = '$aact_hmlg_000c3ViYWNjb3VudHMtZW11bGF0b3Itc3BlYw';
let dir: string;
let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
let receiverUrl: string;
const received: { event: string; accountStatus?: Record<string, string> }[] = [];

async function start(): Promise<void> {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], webhooks: { retries: 0 }, stateFile: join(dir, 'asaas.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/v3`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, body?: unknown, key = KEY) => {
  const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json', access_token: key, 'user-agent': 'orquestra-spec' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (path: string, body: unknown) => {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};

const ANA = {
  name: 'Ana Lima',
  email: 'ana@exemplo.com',
  cpfCnpj: '529.982.247-25',
  birthDate: '1990-05-16',
  mobilePhone: '11988451155',
  incomeValue: 5000,
  address: 'Av. Paulista',
  addressNumber: '1000',
  province: 'Bela Vista',
  postalCode: '01310-100',
  externalReference: 'sub_ana',
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'asaas-subaccounts-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as { event: string });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  await start();
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('Asaas emulator subaccounts', () => {
  let id: string;
  let subKey: string;

  it.each([
    ['incomeValue', { incomeValue: undefined }],
    ['birthDate', { birthDate: undefined }],
    ['mobilePhone', { mobilePhone: '123' }],
    ['postalCode', { postalCode: '0131' }],
    ['cpfCnpj', { cpfCnpj: '52998224724' }],
    ['companyType', { cpfCnpj: '11222333000181', birthDate: undefined }],
  ])('refuses %s as Asaas does (400 invalid_<field>)', async (field, change) => {
    const answer = await call('POST', '/accounts', { ...ANA, ...change });
    expect(answer).toMatchObject({ status: 400, json: { errors: [{ code: `invalid_${field}`, description: expect.any(String) }] } });
  });

  it('creates the subaccount with its apiKey once; the key is its own account', async () => {
    const created = await call('POST', '/accounts', ANA);
    expect(created).toMatchObject({ status: 200, json: { id: expect.any(String), walletId: expect.any(String), apiKey: expect.stringMatching(/^\$aact_hmlg_/), cpfCnpj: '52998224725', externalReference: 'sub_ana' } });
    id = created.json['id'] as string;
    subKey = created.json['apiKey'] as string;
    const listed = await call('GET', '/accounts?cpfCnpj=52998224725');
    expect(listed.json['data']).toEqual([expect.objectContaining({ id, walletId: created.json['walletId'] })]);
    expect(listed.json['data'][0]).not.toHaveProperty('apiKey');
    expect((await call('GET', `/accounts/${id}`)).json).not.toHaveProperty('apiKey');
    expect((await call('POST', '/accounts', { ...ANA, cpfCnpj: '11144477735' })).json).toMatchObject({ errors: [{ code: 'invalid_email' }] });
    expect(await call('GET', '/myAccount/status', undefined, subKey)).toMatchObject({ status: 200, json: { id, general: 'PENDING', documentation: 'PENDING' } });
    expect((await call('GET', '/finance/balance', undefined, subKey)).json).toEqual({ balance: 0 });
    expect((await call('GET', `/accounts/${id}`, undefined, subKey)).status).toBe(404);
  });

  it('moves the status by the control route and tells the root account by webhook', async () => {
    await call('POST', '/webhooks', { name: 'w', url: receiverUrl, email: 'ops@loja.com', sendType: 'SEQUENTIALLY', enabled: true, interrupted: false, events: ['ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED'] });
    expect((await ctl(`/__control/subaccounts/${id}/status`, { status: 'blocked' })).status).toBe(409);
    expect((await ctl('/__control/subaccounts/nope/status', { status: 'active' })).status).toBe(404);
    expect(await ctl(`/__control/subaccounts/${id}/status`, { status: 'active' })).toMatchObject({ status: 200, json: { id, general: 'APPROVED' } });
    expect((await call('GET', '/myAccount/status', undefined, subKey)).json).toMatchObject({ general: 'APPROVED' });
    for (let waited = 0; received.length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual([expect.objectContaining({ event: 'ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED', accountStatus: expect.objectContaining({ id, general: 'APPROVED' }) })]);
  });

  it('credits the subaccount by the balance control route, named by its apiKey', async () => {
    expect((await ctl('/__control/balance/credit', { account: subKey, amount: 2_550 })).status).toBe(200);
    expect((await call('GET', '/finance/balance', undefined, subKey)).json).toEqual({ balance: 25.5 });
  });

  it('keeps subaccounts, their keys, status and balance across a restart', async () => {
    await emulator.stop();
    await start();
    expect((await call('GET', `/accounts/${id}`)).json).toMatchObject({ id, externalReference: 'sub_ana' });
    expect((await call('GET', '/myAccount/status', undefined, subKey)).json).toMatchObject({ general: 'APPROVED' });
    expect((await call('GET', '/finance/balance', undefined, subKey)).json).toEqual({ balance: 25.5 });
  });
});

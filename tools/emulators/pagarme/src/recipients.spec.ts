/**
 * Recipients created by API in the Pagar.me emulator over HTTP: the 422 of a missing field in
 * Pagar.me's shape, the idempotency key and the code, another account's recipient unseen, the
 * control route's KYC outcome with `recipient.updated`, the recipient's own balance, and a restart
 * that keeps them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPagarmeEmulator, type PagarmeEmulator } from './pagarme-emulator';

jest.setTimeout(30_000);

const KEY = 'sk_test_recipientsSpec01';
const OTHER = 'sk_test_recipientsSpec02';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
let dir: string;
let emulator: PagarmeEmulator;
let api: string;
let control: string;
let receiver: Server;
let receiverUrl: string;
const received: { type: string; data: Record<string, unknown> }[] = [];

async function start(): Promise<void> {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }, { secret_key: OTHER }], webhooks: { retries: 0 }, stateFile: join(dir, 'pagarme.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, key = KEY) => {
  const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json', authorization: basic(key), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (path: string, body: unknown) => {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};

const ADDRESS = { street: 'Av. Paulista', street_number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip_code: '01310100' };
const ANA = {
  name: 'Ana Lima',
  email: 'ana@exemplo.com',
  document: '52998224725',
  type: 'individual',
  code: 'sub_ana',
  default_bank_account: { holder_name: 'Ana Lima', holder_type: 'individual', holder_document: '52998224725', bank: '001', branch_number: '1234', account_number: '12345678', account_check_digit: '9', type: 'checking' },
  register_information: {
    type: 'individual',
    name: 'Ana Lima',
    email: 'ana@exemplo.com',
    document: '52998224725',
    birthdate: '16/05/1990',
    monthly_income: 500000,
    professional_occupation: 'Artesã',
    phone_numbers: [{ ddd: '11', number: '988451155', type: 'mobile' }],
    address: ADDRESS,
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagarme-recipients-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as { type: string; data: Record<string, unknown> });
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

describe('Pagar.me emulator recipients', () => {
  let id: string;

  it.each([
    ['recipient.register_information', { register_information: undefined }],
    ['recipient.default_bank_account.bank', { default_bank_account: { ...ANA.default_bank_account, bank: '1' } }],
    ['recipient.default_bank_account.holder_document', { default_bank_account: { ...ANA.default_bank_account, holder_document: '11144477735' } }],
    ['recipient.type', { type: 'company' }],
  ])('refuses %s with a 422 naming it', async (path, change) => {
    const answer = await call('POST', '/recipients', { ...ANA, ...change });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ message: 'The request is invalid.' });
    expect(Object.keys(answer.json['errors'] as object)).toContain(path);
  });

  it('refuses a missing register_information field by its path', async () => {
    const { birthdate: _birthdate, ...information } = ANA.register_information;
    const answer = await call('POST', '/recipients', { ...ANA, register_information: information });
    expect(Object.keys(answer.json['errors'] as object).some((key) => key.endsWith('.birthdate'))).toBe(true);
  });

  it('creates a recipient in registration, replays its idempotency key, refuses a repeated code, reads it by id and code', async () => {
    const created = await call('POST', '/recipients', ANA, { 'idempotency-key': 'sub_ana' });
    expect(created).toMatchObject({ status: 200, json: { id: expect.stringMatching(/^rp_/), code: 'sub_ana', status: 'registration' } });
    expect(created.json).not.toHaveProperty('kyc_details');
    id = created.json['id'] as string;
    expect((await call('POST', '/recipients', ANA, { 'idempotency-key': 'sub_ana' })).json['id']).toBe(id);
    expect((await call('POST', '/recipients', ANA)).json['errors']).toHaveProperty(['recipient.code']);
    expect((await call('GET', `/recipients/${id}`)).json).toMatchObject({ id, code: 'sub_ana' });
    expect((await call('GET', '/recipients/sub_ana')).json).toMatchObject({ id });
    expect((await call('GET', '/recipients')).json['data']).toHaveLength(2);
    expect((await call('GET', `/recipients/${id}`, undefined, {}, OTHER)).status).toBe(404);
    expect((await call('GET', '/recipients/sub_ana', undefined, {}, OTHER)).status).toBe(404);
  });

  it('answers a KYC link while in registration', async () => {
    const link = await call('POST', `/recipients/${id}/kyc_link`, {});
    expect(link).toMatchObject({ status: 200, json: { url: expect.stringMatching(/^https:\/\//), base64_qrcode: expect.any(String), expiration_date: expect.any(String) } });
  });

  it('moves the status by the control route and sends recipient.updated', async () => {
    expect((await ctl('/__control/webhook', { account: KEY, url: receiverUrl, events: ['recipient.updated'] })).status).toBe(200);
    expect((await ctl('/__control/subaccounts/rp_nope/status', { status: 'active' })).status).toBe(404);
    expect((await ctl(`/__control/subaccounts/${id}/status`, { status: 'paid' })).status).toBe(400);
    expect(await ctl(`/__control/subaccounts/${id}/status`, { status: 'refused', reason: 'documento ilegível' })).toMatchObject({ status: 200, json: { status: 'refused', kyc_details: { status: 'denied', status_reason: 'documento ilegível' } } });
    for (let waited = 0; received.length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual([expect.objectContaining({ type: 'recipient.updated', data: expect.objectContaining({ id, status: 'refused' }) })]);
    expect((await call('POST', `/recipients/${id}/kyc_link`, {})).status).toBe(412);
    expect((await ctl(`/__control/subaccounts/${id}/status`, { status: 'active' })).json).toMatchObject({ status: 'active', kyc_details: { status: 'approved' } });
  });

  it("keeps the recipient's own balance, credited by its id", async () => {
    expect((await call('GET', `/recipients/${id}/balance`)).json).toMatchObject({ available_amount: 0 });
    expect((await ctl('/__control/balance/credit', { account: id, amount: 4_200 })).status).toBe(200);
    expect((await call('GET', `/recipients/${id}/balance`)).json).toMatchObject({ available_amount: 4_200, waiting_funds_amount: 0 });
    const own = (await call('GET', '/recipients/default')).json['id'] as string;
    expect((await call('GET', `/recipients/${own}/balance`)).json).toMatchObject({ available_amount: 0 });
  });

  it('keeps recipients and their balance across a restart and a reset', async () => {
    await emulator.stop();
    await start();
    expect((await call('GET', '/recipients/sub_ana')).json).toMatchObject({ id, status: 'active' });
    expect((await fetch(`${control}/__control/reset`, { method: 'POST' })).status).toBe(204);
    expect((await call('GET', `/recipients/${id}/balance`)).json).toMatchObject({ available_amount: 4_200 });
  });
});

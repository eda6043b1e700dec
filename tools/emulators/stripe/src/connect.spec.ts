/**
 * Connected accounts in the Stripe emulator over HTTP: what a new account owes, a link used once,
 * `Stripe-Account` only on the balance and only for the platform's own accounts, another platform's
 * account unseen, and a restart that keeps accounts, links and their balances (state file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStripeEmulator, type StripeEmulator } from './stripe-emulator';

const KEY = 'sk_test_51ConnectEmulatorSpecA';
const OTHER = 'sk_test_51ConnectEmulatorSpecB';
let dir: string;
let emulator: StripeEmulator;
let api: string;
let control: string;

async function start(): Promise<void> {
  emulator = createStripeEmulator({ accounts: [KEY, OTHER], webhooks: { retries: 0 }, stateFile: join(dir, 'stripe.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/v1`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

const call = async (method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}, key = KEY) => {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const newAccount = (email: string) =>
  call('POST', '/accounts', { type: 'express', country: 'BR', email, business_type: 'individual', 'capabilities[transfers][requested]': 'true', 'metadata[orquestra_subaccount_id]': `sub_${email}` });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stripe-connect-'));
  await start();
});

afterAll(async () => {
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Stripe emulator connected accounts', () => {
  it('a new express account owes its onboarding; standard, other countries and express without transfers are refused', async () => {
    const created = await newAccount('ana@exemplo.com');
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      object: 'account',
      type: 'express',
      country: 'BR',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { transfers: 'inactive' },
      requirements: { disabled_reason: 'requirements.past_due', currently_due: expect.arrayContaining(['individual.id_number', 'external_account']) },
    });
    expect((await call('POST', '/accounts', { type: 'standard' })).json.error).toMatchObject({ param: 'type' });
    expect((await call('POST', '/accounts', { type: 'express', country: 'US', 'capabilities[transfers][requested]': 'true' })).json.error).toMatchObject({ param: 'country' });
    expect((await call('POST', '/accounts', { type: 'express' })).json.error).toMatchObject({ param: 'capabilities' });
    expect((await call('GET', `/accounts/${created.json['id']}`, undefined, {}, OTHER)).status).toBe(404);
  });

  it('Stripe-Account: the balance of the platform’s own connected account only, and on no other route', async () => {
    const account = (await newAccount('bia@exemplo.com')).json['id'] as string;
    expect((await ctl('/__control/balance/credit', { account, amount: 2_500 })).status).toBe(200);
    expect((await call('GET', '/balance', undefined, { 'stripe-account': account })).json['available']).toEqual([expect.objectContaining({ amount: 2_500, currency: 'brl' })]);
    expect((await call('GET', '/balance', undefined, { 'stripe-account': account }, OTHER)).status).toBe(403);
    expect((await call('GET', '/payment_intents', undefined, { 'stripe-account': account })).status).toBe(400);
  });

  it('keeps accounts, a link and balances across a restart; a used link stays used', async () => {
    const account = (await newAccount('caio@exemplo.com')).json['id'] as string;
    await ctl('/__control/balance/credit', { account, amount: 700 });
    const link = await call('POST', '/account_links', { account, refresh_url: 'https://x.example/r', return_url: 'https://x.example/ok', type: 'account_onboarding' });
    expect(link.json).toMatchObject({ object: 'account_link', url: expect.stringContaining('/setup/e/') });
    const token = (link.json['url'] as string).split('/').pop();
    await emulator.stop();
    await start();
    expect((await call('GET', `/accounts/${account}`)).json).toMatchObject({ id: account, email: 'caio@exemplo.com' });
    expect((await call('GET', '/balance', undefined, { 'stripe-account': account })).json['available'][0].amount).toBe(700);
    expect(await ctl(`/__control/account-links/${token}/complete`)).toMatchObject({ status: 200, json: { account, redirect: 'https://x.example/ok' } });
    expect((await ctl(`/__control/account-links/${token}/complete`)).status).toBe(409);
    expect((await call('GET', `/accounts/${account}`)).json).toMatchObject({ details_submitted: true, requirements: { currently_due: [], disabled_reason: 'requirements.pending_verification' }, capabilities: { transfers: 'pending' } });
    // Stripe gives codes only: a reason that is not one for the status is `other`.
    expect((await ctl(`/__control/subaccounts/${account}/status`, { status: 'blocked', reason: 'fraud' })).json).toMatchObject({ requirements: { disabled_reason: 'other' } });
    expect((await ctl(`/__control/subaccounts/${account}/status`, { status: 'refused', reason: 'documento ilegível' })).json).toMatchObject({ requirements: { disabled_reason: 'rejected.other' } });
  });
});

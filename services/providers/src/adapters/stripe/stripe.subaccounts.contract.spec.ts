/**
 * Contract test for Stripe Connect subaccounts: the real StripeAdapter over real HTTP against the
 * Stripe emulator. An Express account per subaccount (idempotent on our subaccount id), pending with
 * what Stripe still needs in Portuguese, the hosted onboarding link completed and Stripe's verdict
 * (active, refused, blocked) read back, `account.updated` on the Connect endpoint, and the connected
 * account's own balance (`Stripe-Account`); the shared subaccount contract (testing/subaccount-contract-kit.ts) first.
 */
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext } from '../provider-adapter';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { startWebhookRecorder, until, type WebhookRecorder } from '../testing/contract-kit';
import { subaccountContract, type SubaccountContractTarget } from '../testing/subaccount-contract-kit';
import { StripeAdapter } from './stripe.adapter';
import { DEFAULT_ONBOARDING_RETURN_URL, SUBACCOUNT_METADATA_KEY } from './stripe.subaccounts';

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51SubaccountContract0000';
const RETURN_URL = 'https://loja.exemplo.com/stripe/retorno';

let emulator: StripeEmulator;
let adapter: StripeAdapter;
let context: AdapterContext;
let apiUrl: string;
let controlUrl: string;
let receiver: WebhookRecorder;
let connectUrl: string;

const input = (over: Partial<CreateSubaccountInput> = {}): CreateSubaccountInput => ({
  subaccountId: 'sub_01JSTRIPE000000000000001',
  type: 'individual',
  name: 'Ana Lima',
  document: '52998224725',
  email: 'ana.lima@exemplo.com',
  ...over,
});

async function control(path: string, body: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

async function stripeGet(path: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${SECRET_KEY}` } })).json()) as Record<string, unknown>;
}

const tokenOf = (url: string) => url.split('/').pop() ?? '';

const accountsFor = async (subaccountId: string) =>
  ((await stripeGet('/v1/accounts?limit=100'))['data'] as Array<{ metadata: Record<string, string> }>).filter((a) => a.metadata[SUBACCOUNT_METADATA_KEY] === subaccountId).length;

const target = (): SubaccountContractTarget => ({
  adapter,
  controlUrl,
  input: (subaccountId) => input({ subaccountId, email: `${subaccountId.toLowerCase()}@exemplo.com` }),
  missing: { input: (subaccountId) => input({ subaccountId, email: undefined }), param: 'email' },
  countAtProvider: accountsFor,
  credit: async (subaccount, amount) => {
    expect((await control('/__control/balance/credit', { account: subaccount.providerSubaccountId, amount })).status).toBe(200);
  },
  createdStatus: 'pending',
});

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  apiUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = await startWebhookRecorder();
  const webhookUrl = `${receiver.url}/webhooks/stripe/pa_sub?hmac=x`;
  connectUrl = `${receiver.url}/webhooks/stripe/pa_sub/connect?hmac=x&endpoint=connect`;
  context = { baseUrl: apiUrl, credentials: { secret_key: SECRET_KEY }, webhookUrl, webhookSecret: 'x', settings: { connect_return_url: RETURN_URL }, timeoutMs: 5_000 };
  const registration = await new StripeAdapter(context).registerWebhook(webhookUrl);
  adapter = new StripeAdapter({ ...context, signingSecret: registration.signingSecret ?? '' });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await receiver?.close();
});

describe('Stripe Connect subaccounts: the shared contract', () => {
  subaccountContract(target);
});

describe('Stripe Connect subaccounts: its own', () => {
  it('declares the e-mail as what Stripe requires up front', () => {
    expect(StripeAdapter.subaccountRequirements).toEqual([{ field: 'email' }]);
  });

  it('creates one Express account per subaccount id, pending with what Stripe still needs in Portuguese; read back the same', async () => {
    const first = await adapter.createSubaccount(input());
    expect(first.providerSubaccountId).toMatch(/^acct_/);
    expect(first).toMatchObject({ status: 'pending', providerStatus: 'requirements.past_due', details: { account: first.providerSubaccountId, type: 'express', email: 'ana.lima@exemplo.com' } });
    expect(first.statusDetail).toMatch(/^Cadastro pendente na Stripe: falta informar .*CPF.*conta bancária/);
    const again = await adapter.createSubaccount(input());
    expect(again).toEqual(first);
    expect(await accountsFor('sub_01JSTRIPE000000000000001')).toBe(1);
    const listed = (await stripeGet('/v1/accounts?limit=100'))['data'] as Array<{ id: string; metadata: Record<string, string>; business_type: string; country: string; capabilities: Record<string, string> }>;
    const mine = listed.filter((a) => a.metadata[SUBACCOUNT_METADATA_KEY] === 'sub_01JSTRIPE000000000000001');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: first.providerSubaccountId, business_type: 'individual', country: 'BR', capabilities: { transfers: 'inactive' } });
    expect(await adapter.getSubaccount(first.providerSubaccountId)).toEqual(first);
  });

  it('refuses a create without e-mail before any request, naming email', async () => {
    const before = ((await stripeGet('/v1/accounts?limit=100'))['data'] as unknown[]).length;
    const error = await adapter.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000002', email: undefined })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'email', publicMessage: expect.stringContaining('e-mail') } });
    expect(((await stripeGet('/v1/accounts?limit=100'))['data'] as unknown[]).length).toBe(before);
  });

  it('an e-mail Stripe refuses is rejected naming email', async () => {
    const error = await adapter.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000003', email: 'sem-arroba' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'email' } });
  });

  it('onboarding: the link is completed, Stripe verifies, the account turns active; each change is an account.updated on the Connect endpoint', async () => {
    const connect = await new StripeAdapter(context).registerSubaccountWebhook(connectUrl);
    expect(connect.signingSecret).toMatch(/^whsec_/);
    const connectAdapter = new StripeAdapter({ ...context, signingSecret: connect.signingSecret ?? '' });
    const sub = await adapter.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000004', type: 'company', name: 'Loja Bruno LTDA', email: 'bruno@loja.com' }));
    expect(sub.statusDetail).toContain('CNPJ');

    const link = await adapter.onboardingLink(sub.providerSubaccountId);
    expect(link.url).toMatch(/\/setup\/e\//);
    expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect((await fetch(link.url)).status).toBe(200);
    const completed = await control(`/__control/account-links/${tokenOf(link.url)}/complete`);
    expect(completed).toEqual({ status: 200, body: { account: sub.providerSubaccountId, redirect: RETURN_URL } });
    // A link works once: Stripe sends the seller to refresh_url, which asks for a new one.
    expect((await control(`/__control/account-links/${tokenOf(link.url)}/complete`)).status).toBe(409);
    expect(await adapter.getSubaccount(sub.providerSubaccountId)).toMatchObject({ status: 'pending', providerStatus: 'requirements.pending_verification', statusDetail: expect.stringContaining('verificando') });

    const activated = await control(`/__control/subaccounts/${sub.providerSubaccountId}/status`, { status: 'active' });
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ payouts_enabled: true, capabilities: { transfers: 'active' }, requirements: { disabled_reason: null, currently_due: [] } });
    expect(await adapter.getSubaccount(sub.providerSubaccountId)).toMatchObject({ status: 'active', providerStatus: 'enabled' });

    // Both changes reached the Connect endpoint, signed with its own secret, naming the account.
    const fromConnect = () => receiver.received.filter((h) => h.query['endpoint'] === 'connect');
    const updates = await until(async () => (fromConnect().length >= 2 ? fromConnect() : undefined), 5_000, 'two account.updated');
    for (const hook of updates) {
      expect(connectAdapter.parseSubaccountWebhook(hook)).toEqual({ ok: true, eventKey: expect.stringMatching(/^stripe:evt_/), subaccounts: [{ providerSubaccountId: sub.providerSubaccountId }] });
      // The account endpoint's secret does not verify them.
      expect(adapter.parseSubaccountWebhook(hook)).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    }
    // Never sent to the account endpoint.
    expect(receiver.received.filter((h) => h.query['endpoint'] !== 'connect' && (JSON.parse(h.rawBody.toString('utf8')) as { type: string }).type === 'account.updated')).toEqual([]);
    await connectAdapter.close();
  });

  it('Stripe refusing or blocking the account is read as refused / blocked, in Portuguese', async () => {
    const refused = await adapter.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000005', email: 'carla@exemplo.com' }));
    await control(`/__control/subaccounts/${refused.providerSubaccountId}/status`, { status: 'refused', reason: 'fraud' });
    expect(await adapter.getSubaccount(refused.providerSubaccountId)).toMatchObject({ status: 'refused', providerStatus: 'rejected.fraud', statusDetail: 'A Stripe recusou a conta: suspeita de fraude.' });

    const blocked = await adapter.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000006', email: 'davi@exemplo.com' }));
    await control(`/__control/subaccounts/${blocked.providerSubaccountId}/status`, { status: 'active' });
    await control(`/__control/subaccounts/${blocked.providerSubaccountId}/status`, { status: 'blocked' });
    expect(await adapter.getSubaccount(blocked.providerSubaccountId)).toMatchObject({ status: 'blocked', providerStatus: 'platform_paused', statusDetail: expect.stringContaining('pausada') });
  });

  it('reads the connected account’s own balance (Stripe-Account), not the platform’s', async () => {
    const sub = await adapter.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000007', email: 'eva@exemplo.com' }));
    expect(await adapter.getSubaccountBalance(sub.providerSubaccountId)).toEqual({ available: 0, pending: 0, asOf: expect.any(Date) });
    expect((await control('/__control/balance/credit', { account: sub.providerSubaccountId, amount: 12_345 })).status).toBe(200);
    expect((await control('/__control/balance/credit', { account: sub.providerSubaccountId, amount: 500, into: 'pending' })).status).toBe(200);
    expect(await adapter.getSubaccountBalance(sub.providerSubaccountId)).toEqual({ available: 12_345, pending: 500, asOf: expect.any(Date) });
    expect((await adapter.getBalance()).available).toBe(0);
    // Another platform's account (or a made-up one) is not this platform's to read.
    await expect(adapter.getSubaccountBalance('acct_1NaoExiste000000')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('without configured URLs the link carries the documented placeholder', async () => {
    const plain = new StripeAdapter({ ...context, settings: {} });
    const sub = await plain.createSubaccount(input({ subaccountId: 'sub_01JSTRIPE000000000000008', email: 'fabio@exemplo.com' }));
    const link = await plain.onboardingLink(sub.providerSubaccountId);
    expect((await control(`/__control/account-links/${tokenOf(link.url)}/complete`)).body['redirect']).toBe(DEFAULT_ONBOARDING_RETURN_URL);
    await plain.close();
  });
});

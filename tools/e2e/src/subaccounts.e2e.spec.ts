import { randomBytes, randomUUID } from 'node:crypto';
import { accounts, common } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { api, eventually } from './support/api';
import { connectEmulatorAccount, newMerchant } from './support/merchant';
import { stackInfo } from './support/stack-info';

/**
 * Subaccounts through REST against the real stack: the gateway, the payouts service, the providers
 * service and the Stripe emulator's Connect accounts (Express: Stripe-hosted onboarding, moved to
 * active by its control route). A merchant of its own, so nobody else's accounts are touched.
 */
type Json = Record<string, any>;

let key: string;
let restrictedKey: string;
let stripeAccount: string;
let merchantId: string;
let liveKey: string;

async function stripeControl(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${stackInfo().controlUrls.stripe}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const seller = (overrides: Json = {}): Json => ({
  provider_account_id: stripeAccount,
  name: 'Ana Lima',
  document: '529.982.247-25',
  email: 'ana.lima@exemplo.com.br',
  metadata: { vendedor: '42' },
  ...overrides,
});

beforeAll(async () => {
  ({ merchantId, key, restrictedKey, liveKey } = await newMerchant('Marketplace Subcontas'));
  stripeAccount = await connectEmulatorAccount(key, 'stripe', 'Stripe marketplace', { secret_key: `sk_test_${randomBytes(12).toString('hex')}` });
});

describe('subaccounts', () => {
  it('lists what each provider requires, and refuses a subaccount missing a required field with 400 naming it, creating nothing', async () => {
    const catalog = (await api('GET', '/v1/providers', { key })).body.data as Json[];
    expect(catalog.find((p) => p.code === 'stripe')?.capabilities.subaccounts).toEqual({ supported: true, requires: ['email'] });
    expect(catalog.find((p) => p.code === 'efi')?.capabilities.subaccounts.supported).toBe(false);

    const missing = await api('POST', '/v1/subaccounts', { key, body: seller({ email: undefined }) });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'email' });
    expect(missing.body.error.message).toContain('email');
    const badDocument = await api('POST', '/v1/subaccounts', { key, body: seller({ document: '529.982.247-26' }) });
    expect(badDocument.status).toBe(400);
    expect(badDocument.body.error.param).toBe('document');
    expect((await api('GET', '/v1/subaccounts', { key })).body.data).toEqual([]);
  });

  it('creates one pending at Stripe, onboards it (the hosted link, Stripe approves), Connect’s webhook makes it active, and reads its balance', async () => {
    const idempotencyKey = randomUUID();
    const created = await api('POST', '/v1/subaccounts', { key, body: seller(), idempotencyKey });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      object: 'subaccount',
      mode: 'test',
      status: 'pending',
      provider: 'stripe',
      provider_account_id: stripeAccount,
      provider_subaccount_id: expect.stringMatching(/^acct_/),
      type: 'individual',
      document: '52998224725',
      metadata: { vendedor: '42' },
    });
    expect(created.body.status_detail).toEqual(expect.any(String));
    const replay = await api('POST', '/v1/subaccounts', { key, body: seller(), idempotencyKey });
    expect(replay.body.id).toBe(created.body.id);

    const link = await api('POST', `/v1/subaccounts/${created.body.id}/onboarding-link`, { key });
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/^https?:\/\//);
    expect(Date.parse(link.body.expires_at)).toBeGreaterThan(Date.now());

    const approved = await stripeControl('POST', `/__control/subaccounts/${created.body.provider_subaccount_id}/status`, { status: 'active' });
    expect(approved.status).toBeLessThan(300);
    // Stripe's Connect account.updated reaches the endpoint registered when the account was connected.
    await eventually(async () => ((await api('GET', `/v1/subaccounts/${created.body.id}`, { key })).body.status === 'active' ? true : undefined), 'the subaccount active by Connect webhook');
    const synced = await api('POST', `/v1/subaccounts/${created.body.id}/sync`, { key });
    expect(synced.status).toBe(200);
    expect(synced.body.status).toBe('active');

    const credited = await stripeControl('POST', '/__control/balance/credit', { account: created.body.provider_subaccount_id, amount: 4_321 });
    expect(credited.status).toBeLessThan(300);
    const balance = await api('GET', `/v1/subaccounts/${created.body.id}/balance`, { key });
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ available: 4_321, currency: 'BRL' });

    const renamed = await api('PATCH', `/v1/subaccounts/${created.body.id}`, { key, body: { name: 'Ana Lima ME', metadata: { vendedor: '43' } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Ana Lima ME', metadata: { vendedor: '43' }, status: 'active' });
    const found = await api('GET', '/v1/subaccounts?q=ana%20lima', { key });
    expect(found.body.data.map((s: Json) => s.id)).toEqual([created.body.id]);
  });

  it('restricted keys are refused on every subaccount route; another mode never sees it', async () => {
    const created = await api('POST', '/v1/subaccounts', { key, body: seller({ name: 'Bruno Costa', document: '111.444.777-35', email: 'bruno@exemplo.com.br' }) });
    expect(created.status).toBe(201);
    for (const [method, path] of [
      ['POST', '/v1/subaccounts'],
      ['GET', '/v1/subaccounts'],
      ['GET', `/v1/subaccounts/${created.body.id}`],
      ['POST', `/v1/subaccounts/${created.body.id}/sync`],
      ['GET', `/v1/subaccounts/${created.body.id}/balance`],
    ] as const) {
      const answer = await api(method, path, { key: restrictedKey, ...(method === 'POST' ? { body: seller() } : {}) });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('restricted_key');
    }
    // The same merchant's live mode never sees a test subaccount (nor does another merchant).
    for (const other of [liveKey, stackInfo().liveKey]) expect((await api('GET', `/v1/subaccounts/${created.body.id}`, { key: other })).status).toBe(404);
    expect((await api('GET', '/v1/subaccounts', { key: liveKey })).body.data).toEqual([]);
  });

  it('a split card payment pays its part into the subaccount, whose totals show it; the subaccount withdraws it as a payout', async () => {
    const created = await api('POST', '/v1/subaccounts', { key, body: seller({ name: 'Carla Dias', document: '390.533.447-05', email: 'carla@exemplo.com.br' }) });
    expect(created.status).toBe(201);
    const sub = created.body.id as string;
    expect((await stripeControl('POST', `/__control/subaccounts/${created.body.provider_subaccount_id}/status`, { status: 'active' })).status).toBeLessThan(300);
    expect((await api('POST', `/v1/subaccounts/${sub}/sync`, { key })).body.status).toBe('active');
    const catalog = (await api('GET', '/v1/providers', { key })).body.data as Json[];
    expect(catalog.find((p) => p.code === 'stripe')?.capabilities.max_splits).toBe(1);

    const body = { method: 'card', amount: 10_000, customer: { name: 'Comprador', email: 'comprador@exemplo.com.br', document: '111.444.777-35' }, card: { token: 'pm_card_visa' }, provider_account_id: stripeAccount };
    const denied = await api('POST', '/v1/payments', { key: restrictedKey, body: { ...body, splits: [{ subaccount_id: sub, amount: 100 }] } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'restricted_key', param: 'splits' });
    const tooMuch = await api('POST', '/v1/payments', { key, body: { ...body, splits: [{ subaccount_id: sub, amount: 10_000 }] } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.param).toBe('splits');
    const unknown = await api('POST', '/v1/payments', { key, body: { ...body, splits: [{ subaccount_id: 'sub_nobody', amount: 100 }] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe('splits[0].subaccount_id');
    // The merchant's own live mode does not see this test subaccount.
    const live = await api('POST', '/v1/payments', { key: liveKey, body: { method: 'pix', amount: 10_000, customer: body.customer, splits: [{ subaccount_id: sub, amount: 100 }] } });
    expect(live.status).toBe(404);
    expect(live.body.error.param).toBe('splits[0].subaccount_id');

    // 12.5% of R$ 100,00: 1 250 cents to the seller, the rest (less Stripe's fee) to the marketplace.
    const paid = await api('POST', '/v1/payments', { key, body: { ...body, splits: [{ subaccount_id: sub, percentage: 12.5 }] } });
    expect(paid.body.error).toBeUndefined();
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ status: 'succeeded', provider_account_id: stripeAccount, splits: [{ subaccount_id: sub, amount: 1_250 }] });
    const credited = await eventually(async () => {
      const available = (await api('GET', `/v1/subaccounts/${sub}/balance`, { key })).body.available as number;
      return available > 0 ? available : undefined;
    }, 'the seller’s part in the subaccount balance');
    expect(credited).toBe(1_250);
    const detail = await api('GET', `/v1/subaccounts/${sub}`, { key });
    expect(detail.body.totals).toEqual({ payments: 1, paid_payments: 1, paid_amount: 1_250, pending_amount: 0 });
    expect(detail.body.recent_split_payments).toEqual([
      { payment_id: paid.body.id, status: 'succeeded', method: 'card', payment_amount: 10_000, amount: 1_250, created_at: paid.body.created_at },
    ]);

    // Refunding half: Stripe reverses the transfer in proportion (reverse_transfer), so the seller gives back 625.
    const refund = await api('POST', `/v1/payments/${paid.body.id}/refund`, { key, body: { amount: 5_000 }, idempotencyKey: randomUUID() });
    expect(refund.status).toBe(201);
    const afterRefund = await eventually(async () => {
      const available = (await api('GET', `/v1/subaccounts/${sub}/balance`, { key })).body.available as number;
      return available < 1_250 ? available : undefined;
    }, 'the seller’s part given back in proportion');
    expect(afterRefund).toBe(625);

    // Withdrawals need payouts by API, turned on by the owner.
    const withdraw = (amount: number, idempotencyKey = randomUUID(), withKey = key) =>
      api('POST', `/v1/subaccounts/${sub}/withdrawals`, { key: withKey, body: { amount, description: 'Saque da vendedora' }, idempotencyKey });
    const off = await withdraw(500);
    expect(off.status).toBe(403);
    expect(off.body.error.code).toBe('payouts_api_disabled');
    const owner = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
    try {
      await owner.setPayoutSettings({ merchant_id: merchantId, mode: common.Mode.MODE_TEST, api_enabled: true });
    } finally {
      owner.close();
    }
    expect((await withdraw(500, randomUUID(), restrictedKey)).status).toBe(403);
    const idempotencyKey = randomUUID();
    const payout = await withdraw(500, idempotencyKey);
    expect(payout.status).toBe(201);
    expect(payout.body).toMatchObject({
      object: 'payout',
      amount: 500,
      subaccount_id: sub,
      provider_account_id: stripeAccount,
      destination: { type: 'subaccount' },
      status: expect.stringMatching(/^(processing|paid)$/),
    });
    expect((await withdraw(500, idempotencyKey)).body.id).toBe(payout.body.id);
    expect((await api('GET', `/v1/subaccounts/${sub}/balance`, { key })).body.available).toBe(125);
    const listed = await api('GET', `/v1/subaccounts/${sub}/withdrawals`, { key });
    expect(listed.body.data.map((p: Json) => p.id)).toEqual([payout.body.id]);
    const tooBig = await withdraw(5_000);
    expect(tooBig.status).toBe(422);
  });
});


import { randomBytes } from 'node:crypto';
import { accounts, common } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { api } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Saved cards paid through the real stack: the vault, payments, routing, providers and two
 * emulators. A merchant of its own with Asaas (first by priority; it needs the card's security
 * code) and Stripe (charges without one). The first payment is approved at Asaas and the vault
 * deletes the security code; the second can then go only to Stripe; with Stripe off nobody can
 * charge the card (account_not_enabled). A deleted card is invalid_card; restricted keys save
 * cards but never charge or delete one; the merchant's live mode sees nothing of test mode.
 */
type Json = Record<string, any>;

let key: string;
let restrictedKey: string;
let liveKey: string;
let asaasAccount: string;
let stripeAccount: string;

const BUYER = {
  name: 'Ana Lima',
  email: 'ana.lima@exemplo.com.br',
  document: '529.982.247-25',
  phone: '+55 11 98845-1155',
  ip: '177.10.20.30',
  address: { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-200' },
};

async function control(provider: 'asaas' | 'stripe', path: string, body: unknown): Promise<number> {
  const response = await fetch(`${stackInfo().controlUrls[provider]}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return response.status;
}

/** A card fields token, as the iframe gets it (the call only the platform's own page may make). */
async function tokenize(number: string, cvc = '123'): Promise<string> {
  const config = await api('GET', '/v1/cards/config', { key });
  expect(config.status).toBe(200);
  const platform = new URL(stackInfo().baseUrl).origin;
  const response = await fetch(`${stackInfo().baseUrl}/v1/cards/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: platform },
    body: JSON.stringify({ publishable_key: config.body.publishable_key, origin: 'https://loja.example', number, exp_month: 12, exp_year: 2031, cvc }),
  });
  const body = (await response.json()) as Json;
  expect({ status: response.status, error: body['error'] }).toMatchObject({ status: 201 });
  return body['token'] as string;
}

async function saveCard(number: string, withKey = key): Promise<Json> {
  const saved = await api('POST', '/v1/cards', { key: withKey, body: { vault_token: await tokenize(number), holder_name: 'ANA LIMA', customer: { name: BUYER.name, document: BUYER.document, email: BUYER.email } } });
  expect({ status: saved.status, error: saved.body.error }).toMatchObject({ status: 201 });
  return saved.body;
}

const payWith = (cardId: string, withKey = key, amount = 4_990) => api('POST', '/v1/payments', { key: withKey, body: { method: 'card', amount, customer: BUYER, card: { id: cardId, installments: 1 } } });

beforeAll(async () => {
  const client = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
  try {
    const { merchant } = await client.createMerchant({ name: 'Loja Cartões Salvos', email: `e2e-saved-cards-${Date.now()}@orquestra.dev` });
    if (!merchant) throw new Error('no merchant');
    const keyOf = async (mode: common.Mode, kind: accounts.KeyKind) => (await client.createApiKey({ merchant_id: merchant.id, mode, kind, name: 'saved cards e2e' })).secret;
    key = await keyOf(common.Mode.MODE_TEST, accounts.KeyKind.KEY_KIND_FULL);
    restrictedKey = await keyOf(common.Mode.MODE_TEST, accounts.KeyKind.KEY_KIND_RESTRICTED);
    liveKey = await keyOf(common.Mode.MODE_LIVE, accounts.KeyKind.KEY_KIND_FULL);
  } finally {
    client.close();
  }
  const asaasKey = { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` };
  expect(await control('asaas', '/__control/accounts', asaasKey)).toBeLessThan(300);
  const asaas = await api('POST', '/v1/provider-accounts', { key, body: { provider: 'asaas', name: 'Asaas cartões', credentials: asaasKey, priority: 1 } });
  expect(asaas.status).toBe(201);
  asaasAccount = asaas.body.id as string;
  const stripeKey = { secret_key: `sk_test_${randomBytes(12).toString('hex')}` };
  expect(await control('stripe', '/__control/accounts', stripeKey)).toBeLessThan(300);
  const stripe = await api('POST', '/v1/provider-accounts', { key, body: { provider: 'stripe', name: 'Stripe cartões', credentials: stripeKey, priority: 2 } });
  expect(stripe.status).toBe(201);
  stripeAccount = stripe.body.id as string;
});

describe('saved cards paid through the stack', () => {
  it('is paid twice: at Asaas while it has its security code, then at Stripe once the vault deleted it; with Stripe off nobody can charge it', async () => {
    const catalog = (await api('GET', '/v1/providers', { key })).body.data as Json[];
    expect(catalog.filter((p) => p.capabilities.card_vault).map((p) => p.code)).toEqual(expect.arrayContaining(['asaas', 'stripe']));
    const card = await saveCard('4242424242424242');
    expect(card).toMatchObject({ object: 'card', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031, holder_name: 'ANA LIMA' });
    expect(card.cvc_available_until).toEqual(expect.any(String));

    const first = await payWith(card.id);
    expect({ status: first.status, error: first.body.error }).toMatchObject({ status: 201 });
    expect(first.body).toMatchObject({ method: 'card', status: 'succeeded', provider_account_id: asaasAccount });
    // Approved once: the security code is gone (spec: until the first approval).
    const after = await api('GET', `/v1/cards/${card.id}`, { key });
    expect(after.body.cvc_available_until).toBeNull();

    const second = await payWith(card.id);
    expect({ status: second.status, error: second.body.error }).toMatchObject({ status: 201 });
    expect(second.body).toMatchObject({ status: 'succeeded', provider_account_id: stripeAccount });

    expect((await api('POST', `/v1/provider-accounts/${stripeAccount}/disable`, { key })).status).toBe(200);
    try {
      const nobody = await api('POST', '/v1/payments', { key, body: { method: 'card', amount: 4_990, customer: BUYER, card: { id: card.id } } });
      expect(nobody.status).toBe(422);
      expect(nobody.body.error).toMatchObject({ code: 'account_not_enabled', message: expect.stringContaining('código de segurança') });
    } finally {
      expect((await api('POST', `/v1/provider-accounts/${stripeAccount}/enable`, { key })).status).toBe(200);
    }
  });

  it('restricted keys save cards but never charge or delete one; a deleted card is invalid_card; live mode sees nothing of test mode', async () => {
    const card = await saveCard('5555555555554444', restrictedKey);
    expect(card.brand).toBe('mastercard');
    const charged = await payWith(card.id, restrictedKey);
    expect(charged.status).toBe(403);
    expect(charged.body.error).toMatchObject({ code: 'restricted_key', param: 'card.id' });
    expect((await api('DELETE', `/v1/cards/${card.id}`, { key: restrictedKey })).body.error.code).toBe('restricted_key');
    expect((await api('GET', `/v1/cards/${card.id}`, { key: liveKey })).status).toBe(404);
    expect((await payWith(card.id, liveKey)).status).toBe(402);

    expect((await api('DELETE', `/v1/cards/${card.id}`, { key })).status).toBe(200);
    const gone = await payWith(card.id);
    expect(gone.status).toBe(402);
    expect(gone.body.error).toMatchObject({ type: 'card_error', code: 'invalid_card', param: 'card.id' });
  });
});

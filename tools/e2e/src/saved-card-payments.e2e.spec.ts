import { randomBytes } from 'node:crypto';
import { api } from './support/api';
import { connectEmulatorAccount, newMerchant, tokenizeCard } from './support/merchant';

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

async function saveCard(number: string, withKey = key): Promise<Json> {
  const saved = await api('POST', '/v1/cards', { key: withKey, body: { vault_token: await tokenizeCard(key, number), holder_name: 'ANA LIMA', customer: { name: BUYER.name, document: BUYER.document, email: BUYER.email } } });
  expect({ status: saved.status, error: saved.body.error }).toMatchObject({ status: 201 });
  return saved.body;
}

const payWith = (cardId: string, withKey = key, amount = 4_990) => api('POST', '/v1/payments', { key: withKey, body: { method: 'card', amount, customer: BUYER, card: { id: cardId, installments: 1 } } });

beforeAll(async () => {
  ({ key, restrictedKey, liveKey } = await newMerchant('Loja Cartões Salvos'));
  asaasAccount = await connectEmulatorAccount(key, 'asaas', 'Asaas cartões', { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` }, 1);
  stripeAccount = await connectEmulatorAccount(key, 'stripe', 'Stripe cartões', { secret_key: `sk_test_${randomBytes(12).toString('hex')}` }, 2);
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

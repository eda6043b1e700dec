/**
 * Contract test: vault cards at Asaas. The real AsaasAdapter over real HTTP against the Asaas
 * emulator (in-process, free ports): the card goes in the create call with `creditCard` and
 * `creditCardHolderInfo` and is authorized at once.
 */
import { inspect } from 'node:util';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import type { HttpExchange } from '../http/provider-http';
import { ProviderError, type AdapterContext, type CreateChargeInput, type VaultCardInput } from '../provider-adapter';
import { capabilitiesOf } from '../adapter-capabilities';
import { AsaasAdapter } from './asaas.adapter';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnZhdWx0LWE';
const OTHER_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnZhdWx0LWI';

let emulator: AsaasEmulator;
let apiBase: string;
const adapters: AsaasAdapter[] = [];
const exchanges: HttpExchange[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}): AsaasAdapter {
  const adapter = new AsaasAdapter({
    baseUrl: apiBase,
    credentials: { api_key: API_KEY },
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: 'unused',
    settings: {},
    timeoutMs: 5_000,
    observe: (exchange) => exchanges.push(exchange),
    ...overrides,
  });
  adapters.push(adapter);
  return adapter;
}

const CUSTOMER: CreateChargeInput['customer'] = {
  name: 'Maria Aparecida Souza',
  document: '52998224725',
  email: 'maria@example.com',
  phone: '+55 11 91234-5678',
  ip: '203.0.113.7',
  address: { street: 'Rua das Flores', number: '100', neighborhood: 'Centro', city: 'São Paulo', state: 'SP', zip: '01001-000' },
};

const vaultCard = (number: string, overrides: Partial<VaultCardInput> = {}): VaultCardInput => ({
  number,
  expMonth: 11,
  expYear: new Date().getUTCFullYear() + 4,
  cvc: '321',
  holderName: 'MARIA A SOUZA',
  brand: 'visa',
  ...overrides,
});

let counter = 0;
function cardCharge(card: VaultCardInput, overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_vault_${counter}`,
    method: 'card',
    amount: 4_990,
    customer: CUSTOMER,
    expiresInSeconds: 3600,
    description: 'Pedido 77',
    metadata: {},
    idempotencyKey: `pay_vault_${counter}:acc_asaas_vault`,
    card: { token: '', vaultCard: card, installments: 1 },
    ...overrides,
  };
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }, { api_key: OTHER_KEY }] });
  const ports = await emulator.start();
  apiBase = `http://127.0.0.1:${ports.apiPort}/v3`;
});

afterEach(() => {
  emulator.state.faults.clear();
  emulator.state.createFaults.clear();
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
});

it('the class charges vault cards only with the security code (catalog card_vault)', () => {
  expect(capabilitiesOf(AsaasAdapter)).toMatchObject({ cardVault: true, vaultCardsNeedCvc: true });
});

it('an approved card is a paid charge at once, with the holder info sent', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4111111111111111')));
  expect(charge).toMatchObject({ status: 'paid', amount: 4_990, amountPaid: 4_990, nextAction: { type: 'none' }, providerPaymentId: expect.stringMatching(/^pay_/) as string });
  const answer = await fetch(`${apiBase}/payments/${charge.providerPaymentId}`, { headers: { access_token: API_KEY, 'user-agent': 'contract' } });
  const payment = (await answer.json()) as { status: string; billingType: string; creditCard?: { creditCardNumber: string; creditCardToken: string } };
  expect(payment).toMatchObject({ status: 'CONFIRMED', billingType: 'CREDIT_CARD', creditCard: { creditCardNumber: '1111' } });
});

it.each([
  ['4000000000000002', 'card_declined', 'recusou'],
  ['5184019740373151', 'card_declined', 'recusou'],
  ['4000000000009995', 'insufficient_funds', 'insuficiente'],
  ['4000000000000069', 'expired_card', 'vencido'],
])('%s is a failed charge with failure_code %s and a Portuguese reason, nothing created', async (number, code, words) => {
  const before = emulator.state.stats().charges_created;
  const charge = await adapterWith().createCharge(cardCharge(vaultCard(number)));
  expect(charge).toMatchObject({ status: 'failed', failureCode: code, amountPaid: 0 });
  expect(charge.failureReason).toContain(words);
  expect(emulator.state.stats().charges_created).toBe(before);
});

it('a card past its expiry is refused by Asaas as expired_card', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4111111111111111', { expMonth: 1, expYear: 2021 })));
  expect(charge).toMatchObject({ status: 'failed', failureCode: 'expired_card' });
});

it('a card without its security code is refused before any request (routing keeps such cards away)', async () => {
  exchanges.length = 0;
  const error = await adapterWith()
    .createCharge(cardCharge(vaultCard('4111111111111111', { cvc: undefined })))
    .catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ProviderError);
  expect(error).toMatchObject({ kind: 'rejected', param: { name: 'card' } });
  expect(exchanges).toHaveLength(0);
});

it.each([
  ['email', { email: undefined }, 'customer.email'],
  ['phone', { phone: undefined }, 'customer.phone'],
  ['address', { address: undefined }, 'customer.address.zip'],
  ['ip', { ip: undefined }, 'customer.ip'],
])('a customer without %s is refused before any request on that field', async (_what, change, param) => {
  exchanges.length = 0;
  const error = await adapterWith()
    .createCharge(cardCharge(vaultCard('4111111111111111'), { customer: { ...CUSTOMER, ...change } }))
    .catch((err: unknown) => err);
  expect(error).toMatchObject({ kind: 'rejected', param: { name: param } });
  expect(exchanges).toHaveLength(0);
});

it('a repeat with the same idempotency key charges once and answers the same charge', async () => {
  const before = emulator.state.stats().charges_created;
  const input = cardCharge(vaultCard('5555555555554444'));
  const first = await adapterWith().createCharge(input);
  const again = await adapterWith().createCharge(input);
  expect(again).toMatchObject({ providerPaymentId: first.providerPaymentId, status: 'paid' });
  expect(emulator.state.stats().charges_created - before).toBe(1);
});

it("the creditCardToken Asaas answered works only on its own account", async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4111111111111111')));
  const headers = (key: string) => ({ access_token: key, 'user-agent': 'contract', 'content-type': 'application/json' });
  const paid = (await (await fetch(`${apiBase}/payments/${charge.providerPaymentId}`, { headers: headers(API_KEY) })).json()) as { customer: string; creditCard: { creditCardToken: string } };
  const token = paid.creditCard.creditCardToken;
  expect(token).toEqual(expect.any(String));
  const body = (customer: string) => JSON.stringify({ customer, billingType: 'CREDIT_CARD', value: 10, dueDate: new Date().toISOString().slice(0, 10), creditCardToken: token, remoteIp: '203.0.113.7' });
  const again = await fetch(`${apiBase}/payments`, { method: 'POST', headers: headers(API_KEY), body: body(paid.customer) });
  expect(((await again.json()) as { status: string }).status).toBe('CONFIRMED');
  const created = await fetch(`${apiBase}/customers`, { method: 'POST', headers: headers(OTHER_KEY), body: JSON.stringify({ name: 'Maria', cpfCnpj: '52998224725' }) });
  const otherCustomer = ((await created.json()) as { id: string }).id;
  const elsewhere = await fetch(`${apiBase}/payments`, { method: 'POST', headers: headers(OTHER_KEY), body: body(otherCustomer) });
  expect(elsewhere.status).toBe(400);
  expect(((await elsewhere.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('invalid_creditCardToken');
});

describe('the card number and CVC never leave in an error, a decline or an observed exchange', () => {
  const NUMBER = '4111111111111111';
  const CVC = '987';
  const leaks = (value: unknown) => {
    const text = `${inspect(value, { depth: 8 })} ${JSON.stringify(value)} ${(value as Error)?.message ?? ''} ${(value as Error)?.stack ?? ''}`;
    // The code as a value of its own: random request ids and timings may hold the same digits inside.
    return text.includes(NUMBER) || new RegExp(`(^|[^0-9A-Za-z_.])${CVC}([^0-9A-Za-z_]|$)`).test(text);
  };
  /** An observed exchange has a fixed set of fields (no path, header or body); its timing is left out. */
  const observed = () => exchanges.map(({ seconds: _seconds, ...rest }) => rest);

  it('a refused card, a provider failure (HTTP 500) and a broken connection keep them out', async () => {
    exchanges.length = 0;
    const declined = await adapterWith().createCharge(cardCharge(vaultCard('4000000000000002', { cvc: CVC })));
    expect(leaks(declined)).toBe(false);
    // Only the create answers 500; the read-back by reference then finds nothing: not created.
    emulator.state.createFaults.set(undefined, { error_rate: 1 });
    const failed = await adapterWith()
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC })))
      .catch((err: unknown) => err);
    emulator.state.createFaults.clear();
    expect(failed).toBeInstanceOf(ProviderError);
    expect(leaks(failed)).toBe(false);
    const unreachable = await adapterWith({ baseUrl: 'http://127.0.0.1:9/v3' })
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC })))
      .catch((err: unknown) => err);
    expect(unreachable).toMatchObject({ kind: 'not_created' });
    expect(leaks(unreachable)).toBe(false);
    expect(exchanges.length).toBeGreaterThan(0);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) for (const field of ['body', 'path', 'headers']) expect(Object.keys(exchange)).not.toContain(field);
    expect(leaks(observed())).toBe(false);
  });
});

/**
 * Contract test: vault cards at Pagar.me. The real PagarmeAdapter over real HTTP against the
 * Pagar.me emulator (in-process, free ports): the card goes in the order's `credit_card.card` and
 * is authorized and captured when the order is created.
 */
import { inspect } from 'node:util';
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import type { HttpExchange } from '../http/provider-http';
import { ProviderError, type AdapterContext, type CreateChargeInput, type VaultCardInput } from '../provider-adapter';
import { capabilitiesOf } from '../adapter-capabilities';
import { PagarmeAdapter } from './pagarme.adapter';

jest.setTimeout(30_000);

const KEY = 'sk_test_vaultCardKeyA01';
const OTHER_KEY = 'sk_test_vaultCardKeyB02';

let emulator: PagarmeEmulator;
let baseUrl: string;
let controlUrl: string;
const adapters: PagarmeAdapter[] = [];
const exchanges: HttpExchange[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}, secretKey = KEY): PagarmeAdapter {
  const adapter = new PagarmeAdapter({
    baseUrl,
    credentials: { secret_key: secretKey },
    webhookUrl: 'http://127.0.0.1:9/unused?hmac=x',
    webhookSecret: 'x',
    settings: {},
    timeoutMs: 5_000,
    observe: (exchange) => exchanges.push(exchange),
    ...overrides,
  });
  adapters.push(adapter);
  return adapter;
}

const vaultCard = (number: string, overrides: Partial<VaultCardInput> = {}): VaultCardInput => ({
  number,
  expMonth: 10,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: '456',
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
    amount: 25_900,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com', phone: '+55 11 91234-5678' },
    expiresInSeconds: 3600,
    description: 'Pedido 91',
    metadata: { order_id: '91' },
    idempotencyKey: `pay_vault_${counter}:acc_pagarme_vault`,
    card: { token: '', vaultCard: card, installments: 1 },
    ...overrides,
  };
}

async function stats(): Promise<{ charges_created: number }> {
  return (await (await fetch(`${controlUrl}/__control/stats`)).json()) as never;
}

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }, { secret_key: OTHER_KEY }] });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
});

afterEach(() => emulator.state.faults.clear());

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
});

it('the class takes card (vault cards only, with the security code)', () => {
  expect(capabilitiesOf(PagarmeAdapter)).toMatchObject({ cardVault: true, vaultCardsNeedCvc: true });
  expect(capabilitiesOf(PagarmeAdapter).methods).toContain('card');
});

it('4000000000000010 is a paid charge at once, in installments when asked', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4000000000000010'), { card: { token: '', vaultCard: vaultCard('4000000000000010'), installments: 3 } }));
  expect(charge).toMatchObject({ status: 'paid', amount: 25_900, amountPaid: 25_900, nextAction: { type: 'none' }, providerPaymentId: expect.stringMatching(/^ch_/) as string });
  const read = await adapterWith().getCharge(charge.providerPaymentId);
  expect(read).toMatchObject({ status: 'paid', amountPaid: 25_900 });
  const raw = (await (await fetch(`${baseUrl}/charges/${charge.providerPaymentId}`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` } })).json()) as {
    payment_method: string;
    last_transaction: { installments: number; card: { last_four_digits: string; id: string } };
  };
  expect(raw).toMatchObject({ payment_method: 'credit_card', last_transaction: { installments: 3, card: { last_four_digits: '0010', id: expect.stringMatching(/^card_/) as string } } });
});

it.each([
  ['4000000000000028', 'card_declined', 'recusou'],
  ['4000000000009995', 'insufficient_funds', 'insuficiente'],
  ['4000000000000069', 'expired_card', 'vencido'],
])('%s is a failed charge with failure_code %s and a Portuguese reason, not an error', async (number, code, words) => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard(number)));
  expect(charge).toMatchObject({ status: 'failed', failureCode: code, amountPaid: 0, providerPaymentId: expect.stringMatching(/^ch_/) as string });
  expect(charge.failureReason).toContain(words);
});

it('a card past its expiry is refused by Pagar.me on the card field (422), nothing charged', async () => {
  const before = (await stats()).charges_created;
  const error = await adapterWith()
    .createCharge(cardCharge(vaultCard('4000000000000010', { expMonth: 1, expYear: 2021 })))
    .catch((err: unknown) => err);
  expect(error).toMatchObject({ kind: 'rejected', param: { name: 'card' } });
  expect((error as ProviderError).param?.publicMessage).toContain('vencido');
  expect((await stats()).charges_created).toBe(before);
});

it('a card without its security code, and a card token, are refused before any request', async () => {
  exchanges.length = 0;
  const noCvc = await adapterWith()
    .createCharge(cardCharge(vaultCard('4000000000000010', { cvc: undefined })))
    .catch((err: unknown) => err);
  expect(noCvc).toMatchObject({ kind: 'rejected', param: { name: 'card' } });
  const token = await adapterWith()
    .createCharge(cardCharge(vaultCard('4000000000000010'), { card: { token: 'token_abc', installments: 1 } }))
    .catch((err: unknown) => err);
  expect(token).toMatchObject({ kind: 'rejected', param: { name: 'card.token' } });
  expect(exchanges).toHaveLength(0);
});

it('a repeat with the same idempotency key charges once and answers the same charge', async () => {
  const before = (await stats()).charges_created;
  const input = cardCharge(vaultCard('4000000000000010'));
  const first = await adapterWith().createCharge(input);
  const again = await adapterWith().createCharge(input);
  expect(again).toMatchObject({ providerPaymentId: first.providerPaymentId, status: 'paid' });
  expect((await stats()).charges_created - before).toBe(1);
});

it('the card_id Pagar.me saved works only on its own account', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4000000000000010')));
  const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' });
  const raw = (await (await fetch(`${baseUrl}/charges/${charge.providerPaymentId}`, { headers: auth(KEY) })).json()) as { last_transaction: { card: { id: string } } };
  const order = (cardId: string) =>
    JSON.stringify({
      items: [{ amount: 1000, description: 'Item', quantity: 1 }],
      customer: { name: 'Maria', email: 'maria@example.com', document: '52998224725', type: 'individual', phones: { mobile_phone: { country_code: '55', area_code: '11', number: '912345678' } } },
      payments: [{ payment_method: 'credit_card', credit_card: { installments: 1, card_id: cardId } }],
    });
  const again = await fetch(`${baseUrl}/orders`, { method: 'POST', headers: auth(KEY), body: order(raw.last_transaction.card.id) });
  expect(((await again.json()) as { status: string }).status).toBe('paid');
  const elsewhere = await fetch(`${baseUrl}/orders`, { method: 'POST', headers: auth(OTHER_KEY), body: order(raw.last_transaction.card.id) });
  expect(elsewhere.status).toBe(422);
  expect(((await elsewhere.json()) as { errors: Record<string, string[]> }).errors['order.payments[0].credit_card.card_id']).toEqual(['Card not found.']);
});

describe('the card number and CVC never leave in an error, a decline or an observed exchange', () => {
  const NUMBER = '4000000000000010';
  const CVC = '987';
  const leaks = (value: unknown) => {
    const text = `${inspect(value, { depth: 8 })} ${JSON.stringify(value)} ${(value as Error)?.message ?? ''} ${(value as Error)?.stack ?? ''}`;
    // The code as a value of its own: random request ids and timings may hold the same digits inside.
    return text.includes(NUMBER) || new RegExp(`(^|[^0-9A-Za-z_.])${CVC}([^0-9A-Za-z_]|$)`).test(text);
  };
  /** An observed exchange has a fixed set of fields (no path, header or body); its timing is left out. */
  const observed = () => exchanges.map(({ seconds: _seconds, ...rest }) => rest);

  it('a 422 on the card, a provider failure (HTTP 500) and a broken connection keep them out', async () => {
    exchanges.length = 0;
    const refused = await adapterWith()
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC, expYear: 2020 })))
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(leaks(refused)).toBe(false);
    const declined = await adapterWith().createCharge(cardCharge(vaultCard('4000000000000028', { cvc: CVC })));
    expect(leaks(declined)).toBe(false);
    const faults = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: KEY, error_rate: 1 }) });
    expect(faults.status).toBe(200);
    const failed = await adapterWith()
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC })))
      .catch((err: unknown) => err);
    emulator.state.faults.clear();
    expect(failed).toBeInstanceOf(ProviderError);
    expect(leaks(failed)).toBe(false);
    const unreachable = await adapterWith({ baseUrl: 'http://127.0.0.1:9/core/v5' })
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

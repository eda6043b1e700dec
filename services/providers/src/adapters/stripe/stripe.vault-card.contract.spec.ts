/**
 * Contract test: vault cards at Stripe. The real StripeAdapter over real HTTP against the Stripe
 * emulator (in-process, free ports): the card's fields become a PaymentMethod of the account, then
 * a confirmed PaymentIntent; Stripe's test numbers approve or decline.
 */
import { inspect } from 'node:util';
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import type { HttpExchange } from '../http/provider-http';
import { ProviderError, type AdapterContext, type CreateChargeInput, type VaultCardInput } from '../provider-adapter';
import { capabilitiesOf } from '../adapter-capabilities';
import { StripeAdapter } from './stripe.adapter';

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51VaultCardAccountA000000000';
const OTHER_KEY = 'sk_test_51VaultCardAccountB000000000';

let emulator: StripeEmulator;
let baseUrl: string;
let controlUrl: string;
const adapters: StripeAdapter[] = [];
const exchanges: HttpExchange[] = [];

function adapterWith(secretKey = SECRET_KEY, overrides: Partial<AdapterContext> = {}): StripeAdapter {
  const adapter = new StripeAdapter({
    baseUrl,
    credentials: { secret_key: secretKey },
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

const vaultCard = (number: string, overrides: Partial<VaultCardInput> = {}): VaultCardInput => ({
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: '123',
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
    amount: 15_000,
    customer: { name: 'Maria Aparecida Souza', email: 'maria@example.com', document: '12345678909' },
    expiresInSeconds: 3600,
    description: 'Pedido 77',
    metadata: { order_id: '77' },
    idempotencyKey: `pay_vault_${counter}:acc_stripe_vault`,
    card: { token: '', vaultCard: card, installments: 1 },
    ...overrides,
  };
}

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY, OTHER_KEY] });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
});

afterEach(() => emulator.state.faults.clear());

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
});

it('the class charges vault cards without needing the CVC (catalog card_vault)', () => {
  expect(capabilitiesOf(StripeAdapter)).toMatchObject({ cardVault: true, vaultCardsNeedCvc: false });
});

it('4242… is paid at once through a PaymentMethod of this account, in installments when asked', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4242424242424242'), { card: { token: '', vaultCard: vaultCard('4242424242424242'), installments: 4 } }));
  expect(charge).toMatchObject({ status: 'paid', amount: 15_000, amountPaid: 15_000, providerFee: expect.any(Number) as number, nextAction: { type: 'none' } });
  const stored = emulator.state.findIntent(charge.providerPaymentId);
  expect(stored?.installments).toBe(4);
  expect(stored?.paymentMethod).toMatchObject({ id: expect.stringMatching(/^pm_/) as string, card: { last4: '4242', exp_month: 12 }, billingDetails: { name: 'MARIA A SOUZA' } });
});

it('a card without its CVC is charged (Stripe does not need it)', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4000000760000002', { cvc: undefined })));
  expect(charge).toMatchObject({ status: 'paid', amountPaid: 15_000 });
});

it.each([
  ['4000000000000002', 'card_declined', 'recusou'],
  ['4000000000009995', 'insufficient_funds', 'insuficiente'],
  ['4000000000000069', 'expired_card', 'vencido'],
])('%s is a failed charge with failure_code %s and a Portuguese reason, not an error', async (number, code, words) => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard(number)));
  expect(charge).toMatchObject({ status: 'failed', failureCode: code, amountPaid: 0, providerPaymentId: expect.stringMatching(/^pi_/) as string });
  expect(charge.failureReason).toContain(words);
});

it('a repeat with the same idempotency key charges once and answers the same charge', async () => {
  const before = emulator.state.stats().charges_created;
  const input = cardCharge(vaultCard('4242424242424242'));
  const first = await adapterWith().createCharge(input);
  const again = await adapterWith().createCharge(input);
  expect(again.providerPaymentId).toBe(first.providerPaymentId);
  expect(again.status).toBe('paid');
  expect(emulator.state.stats().charges_created - before).toBe(1);
});

it('the PaymentMethod made for one account is unknown at another (card.token there)', async () => {
  const charge = await adapterWith().createCharge(cardCharge(vaultCard('4242424242424242')));
  const pm = emulator.state.findIntent(charge.providerPaymentId)?.paymentMethod?.id ?? '';
  expect(pm).toMatch(/^pm_/);
  const error = await adapterWith(OTHER_KEY)
    .createCharge(cardCharge(vaultCard('4242424242424242'), { card: { token: pm, installments: 1 } }))
    .catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).param?.name).toBe('card.token');
});

describe('the card number and CVC never leave in an error or an observed exchange', () => {
  const NUMBER = '4242424242424242';
  const CVC = '987';
  const leaks = (value: unknown) => {
    const text = `${inspect(value, { depth: 8 })} ${JSON.stringify(value)} ${(value as Error)?.message ?? ''} ${(value as Error)?.stack ?? ''}`;
    // The code as a value of its own: random request ids and timings may hold the same digits inside.
    return text.includes(NUMBER) || new RegExp(`(^|[^0-9A-Za-z_.])${CVC}([^0-9A-Za-z_]|$)`).test(text);
  };
  /** An observed exchange has a fixed set of fields (no path, header or body); its timing is left out. */
  const observed = () => exchanges.map(({ seconds: _seconds, ...rest }) => rest);

  it('a card Stripe refuses at creation (past expiry) is a rejected card error without the number', async () => {
    exchanges.length = 0;
    const error = await adapterWith()
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC, expYear: 2020 })))
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'card' } });
    expect((error as ProviderError).param?.publicMessage).toContain('vencido');
    expect(leaks(error)).toBe(false);
    expect(exchanges.length).toBeGreaterThan(0);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) for (const field of ['body', 'path', 'headers']) expect(Object.keys(exchange)).not.toContain(field);
    expect(leaks(observed())).toBe(false);
  });

  it('a provider failure (HTTP 500) and a broken connection keep the number out', async () => {
    const faults = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: SECRET_KEY, error_rate: 1 }) });
    expect(faults.status).toBe(200);
    const failed = await adapterWith()
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC })))
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ProviderError);
    expect(leaks(failed)).toBe(false);
    emulator.state.faults.clear();
    const unreachable = await adapterWith(SECRET_KEY, { baseUrl: 'http://127.0.0.1:9' })
      .createCharge(cardCharge(vaultCard(NUMBER, { cvc: CVC })))
      .catch((err: unknown) => err);
    expect(unreachable).toMatchObject({ kind: 'not_created' });
    expect(leaks(unreachable)).toBe(false);
    expect(leaks(observed())).toBe(false);
  });
});

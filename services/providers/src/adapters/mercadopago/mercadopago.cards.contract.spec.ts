/**
 * Contract test: MercadoPagoAdapter's card (vault card → `POST /v1/card_tokens` → payment) and
 * boleto (`bolbradesco`) over real HTTP against the Mercado Pago emulator, started in-process.
 * Card outcomes follow Mercado Pago's test cardholder names (APRO, OTHE, FUND, EXPI).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from '@orquestra/emulators';
import { capabilitiesOf } from '../adapter-capabilities';
import type { HttpExchange } from '../http/provider-http';
import { ProviderError, type AdapterContext, type CreateChargeInput, type VaultCardInput } from '../provider-adapter';
import { payAtEmulator } from '../testing/contract-kit';
import { MercadoPagoAdapter } from './mercadopago.adapter';

jest.setTimeout(30_000);

const ACCOUNT = { access_token: 'TEST-4412987063018275-031014-6f1b0c9e2d7a4b3c8e5f1a2b3c4d5e6f-1234567891', webhook_secret: 'mp_assinatura_c_51aa' };
const OTHER = { access_token: 'TEST-4412987063018275-031014-0a1b2c3d4e5f60718293a4b5c6d7e8f9-2234567891', webhook_secret: 'mp_assinatura_d_77be' };
const URL_SECRET = 'whsec_9d8e7f';
const NUMBER = '5031433215406351';
const CVC = '987';

let emulator: MercadoPagoEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const hooks: string[] = [];
const exchanges: HttpExchange[] = [];
const adapters: MercadoPagoAdapter[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}): MercadoPagoAdapter {
  const adapter = new MercadoPagoAdapter({
    baseUrl,
    credentials: { ...ACCOUNT },
    webhookUrl: `${receiverUrl}?hmac=${URL_SECRET}`,
    webhookSecret: URL_SECRET,
    settings: {},
    timeoutMs: 5_000,
    observe: (exchange) => exchanges.push(exchange),
    ...overrides,
  });
  adapters.push(adapter);
  return adapter;
}

const card = (overrides: Partial<VaultCardInput> = {}): VaultCardInput => ({ number: NUMBER, expMonth: 11, expYear: 2030, cvc: CVC, holderName: 'APRO', brand: 'mastercard', ...overrides });

let counter = 0;
function cardCharge(vaultCard: VaultCardInput, overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_card_${counter}`,
    method: 'card',
    amount: 25_990,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    metadata: { order_id: String(counter) },
    idempotencyKey: `pay_card_${counter}:acc_mp_cards_${Date.now()}`,
    card: { token: '', vaultCard, installments: 3, brand: vaultCard.brand },
    ...overrides,
  };
}

const address = { street: 'Rua das Flores', number: '100', neighborhood: 'Centro', city: 'São Paulo', state: 'SP', zip: '01001000' };

async function errorOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Neither the card number nor the security code appear in what an error or exchange record shows. */
function expectNoCardData(text: string): void {
  expect(text).not.toContain(NUMBER);
  expect(text).not.toContain(NUMBER.slice(0, 12));
  // The code as a value of its own: random ids may hold the same digits inside.
  expect(text).not.toMatch(new RegExp(`(^|[^0-9A-Za-z_.])${CVC}([^0-9A-Za-z_]|$)`));
}

/** The observed exchanges without their timing (a number that may hold any digits). */
const observed = () => exchanges.map(({ seconds: _seconds, ...rest }) => rest);

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [ACCOUNT, OTHER], webhooks: { retries: 1, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hooks.push(Buffer.concat(chunks).toString());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mercadopago/acc_mp_cards`;
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('capabilities', () => {
  it('claims pix, boleto and card, and vault cards only with the security code', () => {
    const capabilities = capabilitiesOf(MercadoPagoAdapter);
    expect(capabilities.methods).toEqual(['pix', 'boleto', 'card']);
    expect({ cardVault: capabilities.cardVault, needsCvc: capabilities.vaultCardsNeedCvc }).toEqual({ cardVault: true, needsCvc: true });
  });
});

describe('vault cards', () => {
  it('APRO: tokenizes at the account and is approved, with installments and the fee', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(cardCharge(card()));
    expect(charge).toMatchObject({ status: 'paid', amount: 25_990, amountPaid: 25_990, nextAction: { type: 'none' } });
    expect(charge.providerFee).toBeGreaterThan(0);
    const stored = emulator.state.findPayment(Number(charge.providerPaymentId));
    expect(stored?.request).toMatchObject({ paymentMethodId: 'master', installments: 3 });
    expect(stored?.card).toMatchObject({ firstSix: '503143', lastFour: '6351' });
    // The emulator keeps only the first six and last four digits.
    expectNoCardData(JSON.stringify({ ...stored, card: undefined }));
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
  });

  it.each([
    ['OTHE', 'card_declined', 'banco emissor recusou'],
    ['FUND', 'insufficient_funds', 'insuficiente'],
    ['EXPI', 'expired_card', 'vencido'],
    ['SECU', 'incorrect_cvc', 'código de segurança'],
  ])('%s: a failed charge with %s and a Portuguese reason', async (holderName, failureCode, reason) => {
    const charge = await adapterWith().createCharge(cardCharge(card({ holderName })));
    expect(charge.status).toBe('failed');
    expect(charge.failureCode).toBe(failureCode);
    expect(charge.failureReason).toContain(reason);
  });

  it.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000069', 'expired_card'],
  ])('the shared emulator decline number %s is %s here too', async (number, failureCode) => {
    const charge = await adapterWith().createCharge(cardCharge(card({ number, brand: 'visa' })));
    expect({ status: charge.status, failureCode: charge.failureCode }).toEqual({ status: 'failed', failureCode });
  });

  it('CONT: pending under review, approved later through the control route', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(cardCharge(card({ holderName: 'CONT' })));
    expect(charge).toMatchObject({ status: 'pending', nextAction: { type: 'none' } });
    await payAtEmulator('mercadopago', controlUrl, { access_token: ACCOUNT.access_token }, charge.providerPaymentId);
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid', amountPaid: 25_990 });
  });

  it('a card whose expiry passed is refused as expired_card', async () => {
    const charge = await adapterWith().createCharge(cardCharge(card({ expYear: 2021, expMonth: 1 })));
    expect({ status: charge.status, failureCode: charge.failureCode }).toEqual({ status: 'failed', failureCode: 'expired_card' });
  });

  it('repeating the idempotency key answers the first payment: one charge only', async () => {
    const adapter = adapterWith();
    const input = cardCharge(card());
    const before = emulator.state.stats().charges_created;
    const first = await adapter.createCharge(input);
    const again = await adapter.createCharge(input);
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
    expect(again.status).toBe('paid');
    expect(emulator.state.stats().charges_created).toBe(before + 1);
  });

  it('no security code: refused before any request (Mercado Pago tokenizes only with it)', async () => {
    const sent = exchanges.length;
    const error = await errorOf(adapterWith().createCharge(cardCharge(card({ cvc: undefined }))));
    expect(error.kind).toBe('rejected');
    expect(exchanges.length).toBe(sent);
  });

  it('a brand Mercado Pago does not take is refused before any request', async () => {
    const sent = exchanges.length;
    const error = await errorOf(adapterWith().createCharge(cardCharge(card({ brand: 'discover', number: '6011111111111117' }))));
    expect(error.message).toContain('discover');
    expect(exchanges.length).toBe(sent);
  });

  it('a failed tokenization (bad number) names status and cause, never the card', async () => {
    const bad = '5031433215406352'; // Luhn fails
    const error = await errorOf(adapterWith().createCharge(cardCharge(card({ number: bad }))));
    expect(error).toMatchObject({ kind: 'rejected', httpStatus: 400 });
    expect(error.message).toContain('create card token');
    expect(error.message).toContain('E301');
    const shown = `${error.message} ${inspect(error)} ${JSON.stringify(error)} ${String(error.stack)}`;
    expect(shown).not.toContain(bad);
    expectNoCardData(shown);
    expectNoCardData(JSON.stringify(observed()));
    expectNoCardData(inspect(adapterWith(), { depth: 5 }));
  });

  it("a card token of the account's own form (card.token + brand) is paid without tokenizing again", async () => {
    const minted = await fetch(`${baseUrl}/v1/card_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACCOUNT.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ card_number: '4235647728025682', expiration_month: 11, expiration_year: 2030, security_code: '123', cardholder: { name: 'APRO' } }),
    });
    const token = ((await minted.json()) as { id: string }).id;
    const charge = await adapterWith().createCharge(cardCharge(card(), { card: { token, installments: 1, brand: 'visa' } }));
    expect(charge.status).toBe('paid');
    expect(emulator.state.findPayment(Number(charge.providerPaymentId))?.request.paymentMethodId).toBe('visa');
    // Without the brand Mercado Pago cannot name the payment method: refused before sending.
    await expect(adapterWith().createCharge(cardCharge(card(), { card: { token, installments: 1 } }))).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('a provider 500 while tokenizing is not_created (nothing charged) and its error shows no card data', async () => {
    emulator.state.faults.clear();
    const fault = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: ACCOUNT.access_token, error_rate: 1 }) });
    expect(fault.status).toBe(200);
    try {
      const error = await errorOf(adapterWith().createCharge(cardCharge(card())));
      expect({ kind: error.kind, httpStatus: error.httpStatus }).toEqual({ kind: 'not_created', httpStatus: 500 });
      expectNoCardData(`${error.message} ${inspect(error)} ${JSON.stringify(error)}`);
      expectNoCardData(JSON.stringify(observed()));
    } finally {
      emulator.state.faults.clear();
    }
  });

  it("a token works only on the account that issued it; another account's answers 400 / 2006", async () => {
    const minted = await fetch(`${baseUrl}/v1/card_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OTHER.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ card_number: NUMBER, expiration_month: 11, expiration_year: 2030, security_code: CVC, cardholder: { name: 'APRO' } }),
    });
    expect(minted.status).toBe(201);
    const token = ((await minted.json()) as { id: string }).id;
    const pay = (accessToken: string, key: string) =>
      fetch(`${baseUrl}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', 'x-idempotency-key': key },
        body: JSON.stringify({ transaction_amount: 10, payment_method_id: 'master', token, installments: 1, payer: { email: 'a@example.com' } }),
      });
    const elsewhere = await pay(ACCOUNT.access_token, `k-other-${Date.now()}`);
    expect(elsewhere.status).toBe(400);
    expect(((await elsewhere.json()) as { cause: { code: number }[] }).cause[0]?.code).toBe(2006);
    const own = await pay(OTHER.access_token, `k-own-${Date.now()}`);
    expect(own.status).toBe(201);
    // Single use: the same token again is refused.
    const reused = await pay(OTHER.access_token, `k-reuse-${Date.now()}`);
    expect(reused.status).toBe(400);
  });
});

describe('boleto (bolbradesco)', () => {
  const boletoCharge = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => {
    counter += 1;
    return {
      paymentId: `pay_boleto_${counter}`,
      method: 'boleto',
      amount: 15_000,
      customer: { name: 'João Pereira', document: '52998224725', email: 'joao@example.com', address },
      expiresInSeconds: 3600,
      metadata: {},
      idempotencyKey: `pay_boleto_${counter}:acc_mp_cards_${Date.now()}`,
      ...overrides,
    };
  };

  it('is created pending with its linha digitável and PDF, paid through the control route, and notified', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(boletoCharge());
    expect(charge.status).toBe('pending');
    expect(charge.nextAction.type).toBe('boleto');
    expect(charge.nextAction.digitableLine).toMatch(/^237\d{44}$/);
    expect(charge.nextAction.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payments\/\d+\/boleto/);
    expect(charge.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 2 * 24 * 3600_000);
    const page = await fetch(charge.nextAction.url ?? '');
    expect(await page.text()).toContain(charge.nextAction.digitableLine);

    await payAtEmulator('mercadopago', controlUrl, { access_token: ACCOUNT.access_token }, charge.providerPaymentId);
    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 15_000, providerFee: 349, nextAction: { type: 'none' } });
    await emulator.webhooksIdle();
    expect(hooks.some((body) => body.includes(charge.providerPaymentId) && body.includes('payment.updated'))).toBe(true);
  });

  it('without the payer address or document it is refused before any request', async () => {
    const sent = exchanges.length;
    const adapter = adapterWith();
    await expect(adapter.createCharge(boletoCharge({ customer: { name: 'João', document: '52998224725', email: 'j@example.com' } }))).rejects.toMatchObject({ kind: 'rejected' });
    await expect(adapter.createCharge(boletoCharge({ customer: { name: 'João', email: 'j@example.com', address } }))).rejects.toMatchObject({ kind: 'rejected' });
    expect(exchanges.length).toBe(sent);
  });

  it('the emulator refuses a boleto without the payer address', async () => {
    const answer = await fetch(`${baseUrl}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACCOUNT.access_token}`, 'content-type': 'application/json', 'x-idempotency-key': `k-b-${Date.now()}` },
      body: JSON.stringify({ transaction_amount: 10, payment_method_id: 'bolbradesco', payer: { email: 'a@example.com', identification: { type: 'CPF', number: '52998224725' } } }),
    });
    expect(answer.status).toBe(400);
  });

  it('canceling a pending boleto answers it canceled', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(boletoCharge());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
  });
});

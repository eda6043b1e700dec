/**
 * Contract test: the real StripeAdapter over real HTTP against the Stripe emulator, started
 * in-process on free ports.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { createStripeEmulator, isValidDigitableLine, type StripeEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { StripeAdapter } from './stripe.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('stripe', controlUrl, {}, id);

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51ContractAccountA0000000000';
const OTHER_KEY = 'sk_test_51ContractAccountB0000000000';
const WEBHOOK_SECRET = 'hmac_3c1f0d9a7b';

interface Received {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

let emulator: StripeEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const adapters: StripeAdapter[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}, secretKey = SECRET_KEY): StripeAdapter {
  const adapter = new StripeAdapter({
    baseUrl,
    credentials: { secret_key: secretKey },
    webhookUrl: receiverUrl,
    webhookSecret: WEBHOOK_SECRET,
    settings: {},
    timeoutMs: 5_000,
    ...overrides,
  });
  adapters.push(adapter);
  return adapter;
}

let keyCounter = 0;
function chargeInput(overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  keyCounter += 1;
  return {
    paymentId: `pay_contract_${keyCounter}`,
    method: 'pix',
    amount: 12_345,
    customer: { name: 'Maria Aparecida Souza', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    description: 'Pedido 4411',
    metadata: { order_id: '4411' },
    idempotencyKey: `pay_contract_${keyCounter}:acc_stripe_1`,
    ...overrides,
  };
}

async function expectProviderError(promise: Promise<unknown>, kind: ProviderError['kind'], code: ProviderError['normalizedCode']) {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect({ kind: (error as ProviderError).kind, code: (error as ProviderError).normalizedCode }).toEqual({ kind, code });
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const asWebhookRequest = (r: Received, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({ subPath: '', query: r.query, headers: r.headers, rawBody: r.rawBody, ...overrides });
const eventType = (r: Received) => (JSON.parse(r.rawBody.toString()) as { type: string }).type;

async function control(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
}

async function stats(): Promise<{ charges_created: number; by_account: Record<string, number>; webhooks_sent: number }> {
  return (await (await control('GET', '/__control/stats')).json()) as never;
}

async function setFaults(body: Record<string, unknown>): Promise<void> {
  expect((await control('POST', '/__control/faults', body)).status).toBe(200);
}

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY], webhooks: { retries: 3, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  // Registered through the control route, as the stack does.
  expect((await control('POST', '/__control/accounts', { secret_key: OTHER_KEY })).status).toBe(201);

  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      received.push({
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        rawBody: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/providers/acc_stripe_1?hmac=${WEBHOOK_SECRET}`;
});

afterEach(async () => {
  emulator.state.faults.clear();
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('credentials', () => {
  it('accepts a registered key and reports an unknown one as invalid_credentials', async () => {
    await expect(adapterWith().verifyCredentials()).resolves.toBeUndefined();
    await expect(adapterWith({}, OTHER_KEY).verifyCredentials()).resolves.toBeUndefined();
    await expectProviderError(adapterWith({}, 'sk_test_51NotRegistered').verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
  });

  it('never shows its secrets when inspected or serialized', () => {
    const adapter = adapterWith({ signingSecret: 'whsec_never_shown' });
    const shown = inspect(adapter, { depth: 10, showHidden: true }) + JSON.stringify(adapter);
    for (const secret of [SECRET_KEY, 'whsec_never_shown']) expect(shown).not.toContain(secret);
  });
});

describe('charges', () => {
  it('creates a pending Pix with a valid BR Code and its expiry, keeping metadata', async () => {
    const before = Date.now();
    const charge = await adapterWith().createCharge(chargeInput({ amount: 199_007 }));
    expect(charge.providerPaymentId).toMatch(/^pi_/);
    expect(charge).toMatchObject({ status: 'pending', amount: 199_007, amountPaid: 0, nextAction: { type: 'pix_qr' } });
    expect(charge.nextAction.qrCodeBase64).toBeUndefined();

    const brCode = charge.nextAction.qrCode ?? '';
    const parsed = parsePix(brCode);
    if (hasError(parsed)) throw new Error(`BR Code does not parse: ${parsed.message}`);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(hasError(parsePix(`${brCode.slice(0, -4)}0000`))).toBe(true);
    expect(charge.expiresAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3_600_000);
    expect(charge.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);

    const stored = emulator.state.findIntent(charge.providerPaymentId);
    expect(stored).toMatchObject({ amount: 199_007, currency: 'brl', metadata: { order_id: '4411', orquestra_payment_id: expect.any(String) as string } });
  });

  it('never creates a second charge for the same idempotency key', async () => {
    emulator.state.reset();
    const adapter = adapterWith();
    const input = chargeInput();
    const first = await adapter.createCharge(input);
    const second = await adapter.createCharge(input);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(second.nextAction.qrCode).toBe(first.nextAction.qrCode);
    const after = await stats();
    expect(after.charges_created).toBe(1);
    expect(after.by_account).toEqual({ [emulator.state.accountForKey(SECRET_KEY)!.id]: 1 });
  });

  it('refuses a repeated key with another amount, other methods and amounts below Stripe’s minimum', async () => {
    const adapter = adapterWith();
    const input = chargeInput();
    await adapter.createCharge(input);
    await expectProviderError(adapter.createCharge({ ...input, amount: input.amount + 1 }), 'rejected', 'provider_rejected');
    // A boleto without the payer's document/address, a card without its token: refused before any call.
    await expectProviderError(adapter.createCharge(chargeInput({ method: 'boleto' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ method: 'card' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ amount: 0 })), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ amount: 49 })), 'rejected', 'provider_rejected');
  });

  it('reads a charge back, and not another account’s', async () => {
    const charge = await adapterWith().createCharge(chargeInput());
    await expect(adapterWith().getCharge(charge.providerPaymentId)).resolves.toMatchObject({ providerPaymentId: charge.providerPaymentId, status: 'pending', amount: 12_345 });
    await expectProviderError(adapterWith({}, OTHER_KEY).getCharge(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapterWith().getCharge('pi_unknownunknownunknown1'), 'not_found', 'not_found');
  });

  it('cancels a pending charge, and answers it as it is when already canceled', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
  });

  it('expires a Pix past its expiry as canceled/expired', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput({ expiresInSeconds: 10 }));
    expect((await control('POST', `/__control/charges/${charge.providerPaymentId}/expire`)).status).toBe(200);
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', failureCode: 'expired' });
  });
});

const ADDRESS = { street: 'Avenida Paulista', number: '1578', complement: 'Conjunto 12', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310200' };
const BOLETO_CUSTOMER = { name: 'Maria Aparecida Souza', email: 'maria@example.com', document: '12345678909', address: ADDRESS };

describe('boleto', () => {
  it('creates a pending boleto with a 47-digit line whose check digits hold, due at the end of its day in São Paulo', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput({ method: 'boleto', customer: BOLETO_CUSTOMER }));
    expect(charge).toMatchObject({ status: 'pending', amount: 12_345, nextAction: { type: 'boleto', url: expect.stringContaining('/boleto/voucher/') as string } });
    expect(isValidDigitableLine(charge.nextAction.digitableLine ?? '')).toBe(true);
    // The line carries the amount in its last ten digits.
    expect(charge.nextAction.digitableLine?.slice(-10)).toBe('0000012345');
    const expires = charge.expiresAt!;
    expect(expires.toISOString()).toMatch(/T02:59:59\.000Z$/); // 23:59:59 at UTC−03:00
    const days = (expires.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2);
    expect(days).toBeLessThan(4.2);
    const voucher = await fetch(charge.nextAction.url!);
    expect(await voucher.text()).toContain(charge.nextAction.digitableLine);
  });

  it('is paid through the sandbox control route; a repeat with the same key is the same boleto', async () => {
    const adapter = adapterWith();
    const input = chargeInput({ method: 'boleto', customer: BOLETO_CUSTOMER });
    const charge = await adapter.createCharge(input);
    expect((await adapter.createCharge(input)).providerPaymentId).toBe(charge.providerPaymentId);
    await simulatePaid(charge.providerPaymentId);
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid', amountPaid: 12_345, nextAction: { type: 'none' } });
  });

  it('refuses a boleto without the payer e-mail before calling Stripe', async () => {
    const { email: _omitted, ...withoutEmail } = BOLETO_CUSTOMER;
    await expectProviderError(adapterWith().createCharge(chargeInput({ method: 'boleto', customer: withoutEmail })), 'rejected', 'provider_rejected');
  });
});

describe('cards', () => {
  const card = (token: string, installments = 1) => chargeInput({ method: 'card', customer: BOLETO_CUSTOMER, card: { token, installments } });

  it('pm_card_visa is paid at once, with the fee, in installments when asked', async () => {
    const charge = await adapterWith().createCharge(card('pm_card_visa', 3));
    expect(charge).toMatchObject({ status: 'paid', amountPaid: 12_345, providerFee: expect.any(Number) as number, nextAction: { type: 'none' } });
    const stored = emulator.state.findIntent(charge.providerPaymentId);
    expect(stored?.installments).toBe(3);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined', 'recusou'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'insuficiente'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'vencido'],
  ])('%s is a failed charge with failure_code %s and a Portuguese reason, not an error', async (token, code, words) => {
    const charge = await adapterWith().createCharge(card(token));
    expect(charge).toMatchObject({ status: 'failed', failureCode: code, amountPaid: 0 });
    expect(charge.failureReason).toContain(words);
  });

  it('a token this account does not have is a parameter error on card.token', async () => {
    const error = await adapterWith().createCharge(card('pm_1OtherAccountToken')).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).param?.name).toBe('card.token');
    expect((error as ProviderError).param?.publicMessage).toContain('não é válido nesta conta');
  });
});

describe('payment and webhook', () => {
  let signingSecret: string;

  beforeAll(async () => {
    const first = await adapterWith().registerWebhook(receiverUrl);
    const again = await adapterWith().registerWebhook(receiverUrl);
    expect(first.signingSecret).toMatch(/^whsec_/);
    signingSecret = again.signingSecret!;
    // Registering again replaces the endpoint: one endpoint, so each event arrives once.
    const accountId = emulator.state.accountForKey(SECRET_KEY)!.id;
    expect(emulator.state.listEndpoints(accountId)).toHaveLength(1);
  });

  it('pays through the sandbox; the signed webhook reaches our URL and parses', async () => {
    const adapter = adapterWith({ signingSecret });
    received.length = 0;
    const charge = await adapter.createCharge(chargeInput({ amount: 5_000 }));
    await simulatePaid(charge.providerPaymentId);

    const hook = await waitFor(() => received.find((r) => eventType(r) === 'payment_intent.succeeded'));
    expect(hook.path).toBe('/webhooks/providers/acc_stripe_1');
    expect(hook.query['hmac']).toBe(WEBHOOK_SECRET);
    expect(hook.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}/);

    const parsed = adapter.parseWebhook(asWebhookRequest(hook));
    expect(parsed).toEqual({ ok: true, providerPaymentIds: [charge.providerPaymentId], eventKey: expect.stringMatching(/^stripe:evt_/) as string });

    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5_000, nextAction: { type: 'none' } });
    expect(paid.endToEndId).toMatch(/^E\d{8}\d{12}[a-zA-Z0-9]{11}$/);
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(paid.providerFee).toBe(60); // the emulator's 1.19 %, rounded
    // Canceling a charge that was just paid answers it as paid, it does not throw.
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
    expect((await stats()).webhooks_sent).toBeGreaterThanOrEqual(1);
  });

  it('rejects forged, malformed and replayed webhooks', async () => {
    const adapter = adapterWith({ signingSecret });
    received.length = 0;
    const charge = await adapter.createCharge(chargeInput());
    await simulatePaid(charge.providerPaymentId);
    const hook = await waitFor(() => received.find((r) => eventType(r) === 'payment_intent.succeeded'));
    const unauthenticated = { ok: false, reason: 'unauthenticated', httpStatus: 401 };

    expect(adapterWith({ signingSecret: 'whsec_forger' }).parseWebhook(asWebhookRequest(hook))).toEqual(unauthenticated);
    expect(adapterWith().parseWebhook(asWebhookRequest(hook))).toEqual(unauthenticated);
    expect(adapter.parseWebhook(asWebhookRequest(hook, { rawBody: Buffer.from(hook.rawBody.toString().replace('"succeeded"', '"canceled"')) }))).toEqual(unauthenticated);
    expect(adapter.parseWebhook(asWebhookRequest(hook, { headers: {} }))).toEqual(unauthenticated);

    const now = Math.floor(Date.now() / 1000);
    const sign = (body: Buffer, t: number) => `t=${t},v1=${createHmac('sha256', signingSecret).update(`${t}.`).update(body).digest('hex')}`;
    const junk = Buffer.from('{"not":"an event"}');
    expect(adapter.parseWebhook({ subPath: '', query: {}, headers: { 'stripe-signature': sign(junk, now) }, rawBody: junk })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });

    // The same delivery replayed after Stripe's 300 s tolerance.
    const later = jest.spyOn(Date, 'now').mockReturnValue((now + 301) * 1000);
    try {
      expect(adapter.parseWebhook(asWebhookRequest(hook))).toEqual(unauthenticated);
    } finally {
      later.mockRestore();
    }
    expect(adapter.parseWebhook(asWebhookRequest(hook, { headers: { 'stripe-signature': sign(hook.rawBody, now - 400) } }))).toEqual(unauthenticated);
  });

  it('the emulator pays only known charges (what simulate uses)', async () => {
    await expectProviderError(simulatePaid('pi_unknownunknownunknown1'), 'not_found', 'not_found');
  });
});

describe('failure classification', () => {
  const createdCount = async () => (await stats()).charges_created;

  it('outage of this account (socket destroyed) → not_created/provider_unavailable', async () => {
    const before = await createdCount();
    await setFaults({ account: SECRET_KEY, outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
    // Another account is unaffected.
    await expect(adapterWith({}, OTHER_KEY).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });

  it('global outage (connection dropped) and 503 → not_created/provider_unavailable', async () => {
    await setFaults({ outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    await setFaults({ account: SECRET_KEY, outage: true, outage_mode: '503' });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('connection refused → not_created/provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectProviderError(adapterWith({ baseUrl: `http://127.0.0.1:${port}` }).createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('500 on create → not_created/provider_error, and nothing was created', async () => {
    const before = await createdCount();
    await setFaults({ account: SECRET_KEY, error_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_error');
    expect(await createdCount()).toBe(before);
  });

  it('429 → not_created/provider_rate_limited', async () => {
    await setFaults({ account: SECRET_KEY, rate_limit_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_rate_limited');
  });

  it('no answer within timeoutMs on create → ambiguous/provider_timeout; the retry makes the one charge', async () => {
    // The same adapter then makes real calls that must succeed: a timeout a loaded machine cannot miss.
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await setFaults({ account: SECRET_KEY, hang: true });
    const input = chargeInput();
    await expectProviderError(adapter.createCharge(input), 'ambiguous', 'provider_timeout');
    emulator.state.faults.clear();
    const before = await createdCount();
    const charge = await adapter.createCharge(input);
    await expect(adapter.createCharge(input)).resolves.toMatchObject({ providerPaymentId: charge.providerPaymentId });
    expect(await createdCount()).toBe(before + 1);
  });

  it('latency below the timeout still succeeds', async () => {
    await setFaults({ account: SECRET_KEY, latency_ms: 50 });
    await expect(adapterWith({ timeoutMs: 2_000 }).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });
});

/**
 * Contract test: the real PagarmeAdapter over real HTTP against the Pagar.me emulator, started
 * in-process on free ports, with a tiny local receiver standing in for our webhook intake.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { createPagarmeEmulator, isValidDigitableLine, type PagarmeEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { PagarmeAdapter, WEBHOOK_EVENTS } from './pagarme.adapter';
import { payAtEmulator, registerWebhookAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('pagarme', controlUrl, { secret_key: KEY }, id);

jest.setTimeout(30_000);

const KEY = 'sk_test_contractKeyA01';
const OTHER_KEY = 'sk_test_contractKeyB02';
const WEBHOOK_SECRET = 'whsec_3c1f0d9a7b';

interface Received {
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

let emulator: PagarmeEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const adapters: PagarmeAdapter[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}, secretKey = KEY): PagarmeAdapter {
  const adapter = new PagarmeAdapter({
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
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com', phone: '+55 11 91234-5678' },
    expiresInSeconds: 3600,
    description: 'Pedido 4411',
    metadata: { order_id: '4411' },
    idempotencyKey: `pay_contract_${keyCounter}:acc_pagarme_1`,
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
const typeOf = (r: Received) => (JSON.parse(r.rawBody.toString()) as { type: string }).type;

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

async function stats(): Promise<{ charges_created: number; by_account: Record<string, number>; webhooks_sent: number }> {
  return (await (await fetch(`${controlUrl}/__control/stats`)).json()) as never;
}

const accountId = (key: string) => emulator.state.resolveAccount(key)!.id;

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }, { secret_key: OTHER_KEY }], webhooks: { retries: 3, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      received.push({
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        rawBody: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pagarme/acc_pagarme_1?hmac=${WEBHOOK_SECRET}`;
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
  it('accepts the right key and reports a wrong one as invalid_credentials', async () => {
    await expect(adapterWith().verifyCredentials()).resolves.toBeUndefined();
    await expectProviderError(adapterWith({}, 'sk_test_wrongwrong').verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
    await expectProviderError(adapterWith({}, 'sk_test_wrongwrong').createCharge(chargeInput()), 'invalid_credentials', 'invalid_credentials');
  });

  it('never shows its secrets when inspected or serialized', async () => {
    const adapter = adapterWith();
    await adapter.verifyCredentials();
    const shown = inspect(adapter, { depth: 10, showHidden: true }) + JSON.stringify(adapter);
    for (const secret of [KEY, WEBHOOK_SECRET]) expect(shown).not.toContain(secret);
  });
});

describe('charges', () => {
  it('creates a pending Pix with a valid BR Code, a PNG QR, its expiry and our metadata at Pagar.me', async () => {
    const before = Date.now();
    const input = chargeInput({ amount: 199_007 });
    const charge = await adapterWith().createCharge(input);
    expect(charge.providerPaymentId).toMatch(/^ch_[A-Za-z0-9]{16}$/);
    expect(charge).toMatchObject({ status: 'pending', amount: 199_007, amountPaid: 0, nextAction: { type: 'pix_qr' } });
    const brCode = charge.nextAction.qrCode ?? '';
    const parsed = parsePix(brCode);
    if (hasError(parsed)) throw new Error(`BR Code does not parse: ${parsed.message}`);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(hasError(parsePix(`${brCode.slice(0, -4)}0000`))).toBe(true);
    const png = Buffer.from(charge.nextAction.qrCodeBase64 ?? '', 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(charge.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(charge.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);
    const stored = emulator.state.getChargeOrder(accountId(KEY), charge.providerPaymentId);
    expect(stored).toMatchObject({ code: input.paymentId, metadata: { order_id: '4411' }, customer: { document: '52998224725', type: 'individual' } });
  });

  it('never creates a second charge for the same idempotency key', async () => {
    emulator.state.reset();
    const adapter = adapterWith();
    const input = chargeInput();
    const first = await adapter.createCharge(input);
    const second = await adapter.createCharge(input);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(second.nextAction.qrCode).toBe(first.nextAction.qrCode);
    expect(await stats()).toMatchObject({ charges_created: 1, by_account: { [accountId(KEY)]: 1 } });
  });

  it('refuses a repeated key with another amount', async () => {
    const adapter = adapterWith();
    const input = chargeInput();
    await adapter.createCharge(input);
    await expectProviderError(adapter.createCharge({ ...input, amount: input.amount + 1 }), 'rejected', 'provider_rejected');
  });

  it('creates a pending boleto with a valid 47-digit line and its voucher, paid through the sandbox', async () => {
    const address = { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310200' };
    const adapter = adapterWith();
    const input = chargeInput({ method: 'boleto', customer: { ...chargeInput().customer, address } });
    const charge = await adapter.createCharge(input);
    expect(charge).toMatchObject({ status: 'pending', nextAction: { type: 'boleto' } });
    expect(isValidDigitableLine(charge.nextAction.digitableLine ?? '')).toBe(true);
    expect(charge.nextAction.digitableLine?.slice(-10)).toBe(String(input.amount).padStart(10, '0'));
    expect(charge.expiresAt?.toISOString()).toMatch(/T02:59:59\.000Z$/);
    expect(await (await fetch(charge.nextAction.url!)).text()).toContain(charge.nextAction.digitableLine);
    expect((await adapter.createCharge(input)).providerPaymentId).toBe(charge.providerPaymentId);
    await simulatePaid(charge.providerPaymentId);
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid', nextAction: { type: 'none' } });
  });

  it('rejects other methods and incomplete customers without calling, and Pagar.me’s 422 as rejected', async () => {
    const before = (await stats()).charges_created;
    await expectProviderError(adapterWith().createCharge(chargeInput({ method: 'boleto' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapterWith().createCharge(chargeInput({ method: 'card' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapterWith().createCharge(chargeInput({ customer: { name: 'Sem Telefone', email: 'a@b.com', document: '52998224725' } })), 'rejected', 'provider_rejected');
    await expectProviderError(adapterWith().createCharge(chargeInput({ customer: { ...chargeInput().customer, document: '12345678900' } })), 'rejected', 'provider_rejected');
    expect((await stats()).charges_created).toBe(before);
  });

  it('reads a charge back, and not another account’s', async () => {
    const charge = await adapterWith().createCharge(chargeInput());
    await expect(adapterWith().getCharge(charge.providerPaymentId)).resolves.toMatchObject({ providerPaymentId: charge.providerPaymentId, status: 'pending', amount: 12_345 });
    await expectProviderError(adapterWith({}, OTHER_KEY).getCharge(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapterWith().getCharge('ch_unknownunknown01'), 'not_found', 'not_found');
  });

  it('cancels a pending charge, and answers it as it is when already canceled', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.cancelCharge('ch_unknownunknown01'), 'not_found', 'not_found');
  });

  it('reports a Pix past its expiry as canceled/expired', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput({ expiresInSeconds: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', failureCode: 'expired' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
  });
});

describe('payment and webhook', () => {
  it('asks for manual setup with the events to tick; the emulator stands in for the dashboard', async () => {
    await expect(adapterWith().registerWebhook(receiverUrl)).resolves.toEqual({ manualSetupRequired: true, events: WEBHOOK_EVENTS });
    await registerWebhookAtEmulator(adapterWith(), { provider: 'pagarme', controlUrl, credentials: { secret_key: KEY } }, receiverUrl);
    expect(emulator.state.getWebhook(accountId(KEY))?.url).toBe(receiverUrl);
    // Named, not left to the dashboard's defaults: refunds need charge.partial_canceled and charge.refunded.
    expect(emulator.state.getWebhook(accountId(KEY))?.events).toEqual([...WEBHOOK_EVENTS]);
    expect(WEBHOOK_EVENTS).toEqual(expect.arrayContaining(['charge.paid', 'charge.partial_canceled', 'charge.refunded']));
  });

  it('pays through the sandbox; the webhooks reach the receiver and parse; a paid charge is not canceled', async () => {
    const adapter = adapterWith();
    await registerWebhookAtEmulator(adapter, { provider: 'pagarme', controlUrl, credentials: { secret_key: KEY } }, receiverUrl);
    received.length = 0;
    const charge = await adapter.createCharge(chargeInput({ amount: 5_000 }));
    await simulatePaid(charge.providerPaymentId);

    const orderPaid = await waitFor(() => received.find((r) => typeOf(r) === 'order.paid'));
    const chargePaid = await waitFor(() => received.find((r) => typeOf(r) === 'charge.paid'));
    expect(orderPaid.query['hmac']).toBe(WEBHOOK_SECRET);
    const parsed = adapter.parseWebhook(asWebhookRequest(orderPaid));
    expect(parsed).toEqual({ ok: true, providerPaymentIds: [charge.providerPaymentId], eventKey: expect.stringMatching(/^pagarme:hook_/) });
    expect(adapter.parseWebhook(asWebhookRequest(chargePaid))).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    // A replay carries the same hook id, so it dedupes on the event key (Pagar.me gives no timestamp to bound it).
    expect(adapter.parseWebhook(asWebhookRequest(orderPaid))).toEqual(parsed);

    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5_000, nextAction: { type: 'none' } });
    expect(paid.endToEndId).toHaveLength(32);
    expect(paid.paidAt).toBeInstanceOf(Date);
    // DELETE would refund a paid charge at Pagar.me: cancel answers it paid and leaves it paid.
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
    expect(emulator.state.getChargeOrder(accountId(KEY), charge.providerPaymentId).charge.status).toBe('paid');
    expect((await stats()).webhooks_sent).toBeGreaterThanOrEqual(2);
  });

  it('rejects a forged and a malformed webhook', async () => {
    const adapter = adapterWith();
    const genuine = { subPath: '', query: { hmac: WEBHOOK_SECRET }, headers: {}, rawBody: Buffer.from('{"id":"hook_1","type":"charge.paid","data":{"id":"ch_1"}}') };
    expect(adapter.parseWebhook(genuine)).toEqual({ ok: true, providerPaymentIds: ['ch_1'], eventKey: 'pagarme:hook_1' });
    expect(adapter.parseWebhook({ ...genuine, query: { hmac: 'whsec_guess' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    expect(adapter.parseWebhook({ ...genuine, query: {} })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    expect(adapter.parseWebhook({ ...genuine, rawBody: Buffer.from('{"type":"charge.paid"}') })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
  });

  it('the emulator pays only known charges (what simulate uses)', async () => {
    await expectProviderError(simulatePaid('ch_unknownunknown01'), 'not_found', 'not_found');
  });
});

describe('failure classification', () => {
  const createdCount = async () => (await stats()).charges_created;

  it('outage of this account (socket destroyed) → not_created/provider_unavailable', async () => {
    const before = await createdCount();
    await setFaults({ account: KEY, outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
  });

  it('global outage and outage answered 503 → not_created/provider_unavailable', async () => {
    await setFaults({ outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    emulator.state.faults.clear();
    await setFaults({ account: KEY, outage: true, outage_mode: '503' });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('connection refused → not_created/provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectProviderError(adapterWith({ baseUrl: `http://127.0.0.1:${port}/core/v5` }).createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('500 on create → not_created/provider_error (the idempotency key makes a repeat safe)', async () => {
    const before = await createdCount();
    await setFaults({ account: KEY, error_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_error');
    expect(await createdCount()).toBe(before);
  });

  it('429 → not_created/provider_rate_limited, only for the account it targets', async () => {
    await setFaults({ account: KEY, rate_limit_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_rate_limited');
    await expect(adapterWith({}, OTHER_KEY).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });

  it('no answer within timeoutMs on create → ambiguous/provider_timeout; the retry makes the one charge', async () => {
    // The same adapter then makes real calls that must succeed: a timeout a loaded machine cannot miss.
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await setFaults({ account: KEY, hang: true });
    const input = chargeInput();
    await expectProviderError(adapter.createCharge(input), 'ambiguous', 'provider_timeout');
    await expectProviderError(adapter.getCharge('ch_whateverwhatever'), 'not_created', 'provider_timeout');
    emulator.state.faults.clear();
    const before = await createdCount();
    const charge = await adapter.createCharge(input);
    const again = await adapter.createCharge(input);
    expect(again.providerPaymentId).toBe(charge.providerPaymentId);
    expect(await createdCount()).toBe(before + 1);
  });

  it('latency below the timeout still succeeds', async () => {
    await setFaults({ account: KEY, latency_ms: 50 });
    await expect(adapterWith({ timeoutMs: 2_000 }).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });
});

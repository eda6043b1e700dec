/**
 * Contract test: the real MercadoPagoAdapter over real HTTP against the Mercado Pago emulator,
 * started in-process on free ports, with a tiny local receiver standing in for our webhook intake.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { hasError, isStaticPix, parsePix } from 'pix-utils';
// The emulator is not exported from @orquestra/emulators yet (tools/emulators/index.ts is shared).
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { MercadoPagoAdapter } from './mercadopago.adapter';
import { computeSignature } from './mercadopago.webhook';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('mercadopago', controlUrl, {}, id);

jest.setTimeout(30_000);

const ACCOUNT = { access_token: 'TEST-4412987063018275-031014-6f1b0c9e2d7a4b3c8e5f1a2b3c4d5e6f-1234567890', webhook_secret: 'mp_assinatura_a_7c41' };
const OTHER = { access_token: 'TEST-4412987063018275-031014-0a1b2c3d4e5f60718293a4b5c6d7e8f9-2234567890', webhook_secret: 'mp_assinatura_b_19de' };
const URL_SECRET = 'whsec_3c1f0d9a7b';

interface Received {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

let emulator: MercadoPagoEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let receiverFailuresLeft = 0;
const adapters: MercadoPagoAdapter[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}): MercadoPagoAdapter {
  const adapter = new MercadoPagoAdapter({
    baseUrl,
    credentials: { ...ACCOUNT },
    webhookUrl: `${receiverUrl}?hmac=${URL_SECRET}`,
    webhookSecret: URL_SECRET,
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
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    description: 'Pedido 4411',
    metadata: { order_id: '4411' },
    idempotencyKey: `pay_contract_${keyCounter}:acc_mp_1`,
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

const asWebhookRequest = (r: Received, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  subPath: '',
  query: r.query,
  headers: r.headers,
  rawBody: r.rawBody,
  ...overrides,
});

const hookFor = (paymentId: string, action: string) => (r: Received) =>
  r.query['data.id'] === paymentId && (JSON.parse(r.rawBody.toString()) as { action?: string }).action === action;

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

async function stats(): Promise<{ charges_created: number; by_account: Record<string, number>; webhooks_sent: number }> {
  return (await (await fetch(`${controlUrl}/__control/stats`)).json()) as never;
}

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [ACCOUNT, OTHER], webhooks: { retries: 3, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
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
      const fail = receiverFailuresLeft > 0;
      if (fail) receiverFailuresLeft -= 1;
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mercadopago/acc_mp_1`;
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
  it('accepts the right ones and reports wrong ones as invalid_credentials', async () => {
    await expect(adapterWith().verifyCredentials()).resolves.toBeUndefined();
    await expectProviderError(adapterWith({ credentials: { access_token: 'TEST-wrong', webhook_secret: 'x' } }).verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
    await expectProviderError(adapterWith({ credentials: {} }).verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
  });

  it('never shows its secrets when inspected or serialized', () => {
    const adapter = adapterWith();
    const shown = inspect(adapter, { depth: 10, showHidden: true }) + JSON.stringify(adapter);
    for (const secret of [ACCOUNT.access_token, ACCOUNT.webhook_secret, URL_SECRET]) expect(shown).not.toContain(secret);
  });

  it('registers no webhook: every payment carries its notification_url', async () => {
    await expect(adapterWith().registerWebhook(`${receiverUrl}?hmac=${URL_SECRET}`)).resolves.toEqual({});
  });
});

describe('charges', () => {
  it('creates a pending Pix charge with a valid BR Code and a PNG QR image', async () => {
    const before = Date.now();
    const charge = await adapterWith().createCharge(chargeInput({ amount: 199_007 }));
    expect(charge.providerPaymentId).toMatch(/^\d+$/);
    expect(charge).toMatchObject({ status: 'pending', amount: 199_007, amountPaid: 0, nextAction: { type: 'pix_qr' } });
    const brCode = charge.nextAction.qrCode ?? '';
    const parsed = parsePix(brCode);
    if (hasError(parsed)) throw new Error(`BR Code does not parse: ${parsed.message}`);
    expect(isStaticPix(parsed) && parsed.transactionAmount).toBe(1990.07);
    expect(hasError(parsePix(`${brCode.slice(0, -4)}0000`))).toBe(true);
    const png = Buffer.from(charge.nextAction.qrCodeBase64 ?? '', 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(charge.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(charge.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);
  });

  it('never creates a second charge for the same idempotency key', async () => {
    emulator.state.reset();
    const adapter = adapterWith();
    const input = chargeInput();
    const first = await adapter.createCharge(input);
    const second = await adapter.createCharge(input);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(second.nextAction.qrCode).toBe(first.nextAction.qrCode);
    expect(await stats()).toMatchObject({ charges_created: 1, by_account: { '1234567890': 1 } });
  });

  it('refuses a repeated key with another amount, other methods, and a payer without e-mail', async () => {
    const adapter = adapterWith();
    const input = chargeInput();
    await adapter.createCharge(input);
    await expectProviderError(adapter.createCharge({ ...input, amount: input.amount + 1 }), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ method: 'boleto' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ customer: { name: 'Sem Email' } })), 'rejected', 'provider_rejected');
  });

  it('keeps metadata and external_reference at the provider', async () => {
    const input = chargeInput({ metadata: { order_id: '9001' } });
    const charge = await adapterWith().createCharge(input);
    const stored = emulator.state.findPayment(Number(charge.providerPaymentId));
    expect(stored?.request).toMatchObject({ metadata: { order_id: '9001' }, externalReference: input.paymentId });
  });

  it('reads a charge back, and not another account’s', async () => {
    const charge = await adapterWith().createCharge(chargeInput());
    await expect(adapterWith().getCharge(charge.providerPaymentId)).resolves.toMatchObject({ providerPaymentId: charge.providerPaymentId, status: 'pending', amount: 12_345 });
    const other = adapterWith({ credentials: { ...OTHER } });
    await expectProviderError(other.getCharge(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapterWith().getCharge('999999999999'), 'not_found', 'not_found');
  });

  it('cancels a pending charge, and answers it as it is when already cancelled', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
  });
});

describe('payment and webhook', () => {
  it('pays through the sandbox; the signed webhook reaches our URL and parses', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput({ amount: 5_000 }));
    await simulatePaid(charge.providerPaymentId);
    const hook = await waitFor(() => received.find(hookFor(charge.providerPaymentId, 'payment.updated')));
    expect(hook.path).toBe('/webhooks/mercadopago/acc_mp_1');
    expect(hook.query).toMatchObject({ hmac: URL_SECRET, source_news: 'webhooks', 'data.id': charge.providerPaymentId, type: 'payment' });
    expect(hook.headers['x-signature']).toMatch(/^ts=\d+,v1=[0-9a-f]{64}$/);

    const parsed = adapter.parseWebhook(asWebhookRequest(hook));
    expect(parsed).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    expect(adapter.parseWebhook(asWebhookRequest(hook))).toEqual(parsed);

    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5_000, providerFee: 50, nextAction: { type: 'none' } });
    expect(paid.endToEndId).toMatch(/^E10573521\d{12}[a-zA-Z0-9]{11}$/);
    expect(paid.paidAt).toBeInstanceOf(Date);
    // Canceling a charge that was just paid answers it as paid, it does not throw.
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
    expect((await stats()).webhooks_sent).toBeGreaterThanOrEqual(1);
  });

  it('rejects forged, replayed and malformed webhooks', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    const hook = await waitFor(() => received.find(hookFor(charge.providerPaymentId, 'payment.created')));
    const unauthenticated = { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    expect(adapter.parseWebhook(asWebhookRequest(hook))).toMatchObject({ ok: true });
    // Signed with another account's secret, or not signed at all.
    expect(adapterWith({ credentials: { ...OTHER } }).parseWebhook(asWebhookRequest(hook))).toEqual(unauthenticated);
    expect(adapter.parseWebhook(asWebhookRequest(hook, { headers: { 'x-request-id': hook.headers['x-request-id'] ?? '' } }))).toEqual(unauthenticated);
    // The same signature for another payment id.
    expect(adapter.parseWebhook(asWebhookRequest(hook, { query: { ...hook.query, 'data.id': '1' } }))).toEqual(unauthenticated);
    // A genuine signature from six minutes ago, replayed.
    const ts = String(Date.now() - 360_000);
    const requestId = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';
    const old = `ts=${ts},v1=${computeSignature(ACCOUNT.webhook_secret, charge.providerPaymentId, requestId, ts)}`;
    expect(adapter.parseWebhook(asWebhookRequest(hook, { headers: { 'x-signature': old, 'x-request-id': requestId } }))).toEqual(unauthenticated);
    // Signed, but the body is not a notification.
    expect(adapter.parseWebhook(asWebhookRequest(hook, { rawBody: Buffer.from('{"broken":') }))).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
  });

  it('retries a webhook the receiver refused', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await emulator.webhooksIdle();
    receiverFailuresLeft = 2;
    await simulatePaid(charge.providerPaymentId);
    await emulator.webhooksIdle();
    const deliveries = emulator.state.listDeliveries().filter((d) => d.paymentId === Number(charge.providerPaymentId) && d.action === 'payment.updated');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: 'webhook', outcome: 'delivered' });
    expect(deliveries[0]?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it('the emulator pays only known charges (what simulate uses)', async () => {
    await expectProviderError(simulatePaid('999999999999'), 'not_found', 'not_found');
  });
});

describe('failure classification', () => {
  const createdCount = async () => (await stats()).charges_created;

  it('outage of this account (socket destroyed) → not_created/provider_unavailable, nothing created', async () => {
    const before = await createdCount();
    await setFaults({ account: ACCOUNT.access_token, outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
  });

  it('global outage (connection dropped) and outage answered 503 → not_created/provider_unavailable', async () => {
    await setFaults({ outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    await setFaults({ outage: true, outage_mode: '503' });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('connection refused → not_created/provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectProviderError(adapterWith({ baseUrl: `http://127.0.0.1:${port}` }).createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('500 on create → not_created/provider_error', async () => {
    const before = await createdCount();
    await setFaults({ account: ACCOUNT.access_token, error_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_error');
    expect(await createdCount()).toBe(before);
  });

  it('429 → not_created/provider_rate_limited', async () => {
    await setFaults({ account: ACCOUNT.access_token, rate_limit_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_rate_limited');
  });

  it('faults of one account leave another alone', async () => {
    await setFaults({ account: OTHER.access_token, error_rate: 1 });
    await expect(adapterWith().createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });

  it('no answer within timeoutMs on create → ambiguous/provider_timeout; the retry makes the one charge', async () => {
    // The same adapter then makes real calls that must succeed: a timeout a loaded machine cannot miss.
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await setFaults({ account: ACCOUNT.access_token, hang: true });
    const input = chargeInput();
    await expectProviderError(adapter.createCharge(input), 'ambiguous', 'provider_timeout');
    emulator.state.faults.clear();
    const before = await createdCount();
    const charge = await adapter.createCharge(input);
    expect((await adapter.createCharge(input)).providerPaymentId).toBe(charge.providerPaymentId);
    expect(await createdCount()).toBe(before + 1);
  });

  it('latency below the timeout still succeeds', async () => {
    await setFaults({ account: ACCOUNT.access_token, latency_ms: 50 });
    await expect(adapterWith({ timeoutMs: 2_000 }).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });
});

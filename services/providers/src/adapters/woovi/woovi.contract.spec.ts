/**
 * Contract test: the real WooviAdapter over real HTTP against the Woovi emulator, started
 * in-process on free ports, with a local receiver for its RSA-signed webhooks.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { createWooviEmulator, type WooviEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { WooviAdapter } from './woovi.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('woovi', controlUrl, { app_id: APP_ID }, id);

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX2NvbnRyYWN0OnNlY3JldA==';
const OTHER_APP_ID = 'Q2xpZW50X0lkX290aGVyOnNlY3JldA==';
const WEBHOOK_SECRET = 'whsec_8f2c1e';

interface Received {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

let emulator: WooviEmulator;
let baseUrl: string;
let controlUrl: string;
let publicKeyPem: string;
/** The emulator's signing key, made here so the test can sign bodies as Woovi would. */
const signingKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const adapters: WooviAdapter[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}): WooviAdapter {
  const adapter = new WooviAdapter({
    baseUrl,
    credentials: { app_id: APP_ID },
    webhookUrl: receiverUrl,
    webhookSecret: WEBHOOK_SECRET,
    settings: { webhook_public_key: publicKeyPem },
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
    idempotencyKey: `pay_contract_${keyCounter}:acc_woovi_1`,
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

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

async function stats(): Promise<{ charges_created: number; by_account: Record<string, number>; webhooks_sent: number }> {
  return (await (await fetch(`${controlUrl}/__control/stats`)).json()) as never;
}

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_ID, OTHER_APP_ID], signingPrivateKeyPem: signingKeyPem, webhooks: { retries: 3, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  // As the stack would: the public key comes from the emulator's control port.
  publicKeyPem = await (await fetch(`${controlUrl}/__control/public-key`)).text();

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
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/woovi/acc_woovi_1?hmac=${WEBHOOK_SECRET}`;
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
  it('accepts the right AppID and reports a wrong one as invalid_credentials', async () => {
    await expect(adapterWith().verifyCredentials()).resolves.toBeUndefined();
    await expectProviderError(adapterWith({ credentials: { app_id: 'wrong' } }).verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
    await expectProviderError(adapterWith({ credentials: {} }).createCharge(chargeInput()), 'invalid_credentials', 'invalid_credentials');
  });

  it('never shows its secrets when inspected or serialized', () => {
    const adapter = adapterWith();
    const shown = inspect(adapter, { depth: 10, showHidden: true }) + JSON.stringify(adapter);
    for (const secret of [APP_ID, WEBHOOK_SECRET]) expect(shown).not.toContain(secret);
  });
});

describe('charges', () => {
  it('creates a pending Pix charge with a valid dynamic BR Code, expiry and fee', async () => {
    const before = Date.now();
    const input = chargeInput({ amount: 199_007 });
    const charge = await adapterWith().createCharge(input);
    expect(charge).toMatchObject({ providerPaymentId: input.idempotencyKey, status: 'pending', amount: 199_007, amountPaid: 0, nextAction: { type: 'pix_qr' }, providerFee: 1_592 });
    const parsed = parsePix(charge.nextAction.qrCode ?? '');
    if (hasError(parsed)) throw new Error(`BR Code does not parse: ${parsed.message}`);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(charge.nextAction.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\//);
    expect(charge.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(charge.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);
    const stored = emulator.state.listCharges(Object.keys((await stats()).by_account)[0]!).find((c) => c.correlationID === input.idempotencyKey);
    expect(stored).toMatchObject({ comment: 'Pedido 4411', additionalInfo: [{ key: 'order_id', value: '4411' }], customer: { name: 'Maria Aparecida Souza', taxID: { taxID: '52998224725' } } });
  });

  it('never creates a second charge for the same idempotency key', async () => {
    emulator.state.reset();
    const adapter = adapterWith();
    const input = chargeInput();
    const first = await adapter.createCharge(input);
    const second = await adapter.createCharge(input);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(second.nextAction.qrCode).toBe(first.nextAction.qrCode);
    expect((await stats()).charges_created).toBe(1);
    await expectProviderError(adapter.createCharge({ ...input, amount: input.amount + 1 }), 'rejected', 'provider_rejected');
    expect((await stats()).charges_created).toBe(1);
  });

  it('rejects methods other than pix, and amounts Pix cannot carry', async () => {
    await expectProviderError(adapterWith().createCharge(chargeInput({ method: 'boleto' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapterWith().createCharge(chargeInput({ amount: 0 })), 'rejected', 'provider_rejected');
  });

  it('reads a charge back, and not another account’s', async () => {
    const charge = await adapterWith().createCharge(chargeInput());
    await expect(adapterWith().getCharge(charge.providerPaymentId)).resolves.toMatchObject({ providerPaymentId: charge.providerPaymentId, status: 'pending', amount: 12_345 });
    await expectProviderError(adapterWith({ credentials: { app_id: OTHER_APP_ID } }).getCharge(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapterWith().getCharge('unknown-charge'), 'not_found', 'not_found');
  });

  it('cancels a pending charge, which can then no longer be paid', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', nextAction: { type: 'none' }, amount: 12_345 });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapter.cancelCharge(charge.providerPaymentId), 'not_found', 'not_found');
  });
});

describe('payment and webhook', () => {
  it('registers one webhook per needed event, once', async () => {
    const adapter = adapterWith();
    await expect(adapter.registerWebhook(receiverUrl)).resolves.toEqual({});
    await expect(adapter.registerWebhook(receiverUrl)).resolves.toEqual({});
    const account = Object.keys((await stats()).by_account)[0]!;
    expect(emulator.state.listWebhooks(account, receiverUrl).map((w) => w.event).sort()).toEqual([
      'OPENPIX:CHARGE_COMPLETED',
      'OPENPIX:CHARGE_EXPIRED',
      'OPENPIX:DISPUTE_ACCEPTED',
      'OPENPIX:DISPUTE_CANCELED',
      'OPENPIX:DISPUTE_CREATED',
      'OPENPIX:DISPUTE_REJECTED',
      'OPENPIX:MOVEMENT_CONFIRMED',
      'OPENPIX:MOVEMENT_FAILED',
      'OPENPIX:MOVEMENT_REMOVED',
      'OPENPIX:TRANSACTION_REFUND_RECEIVED',
    ]);
    // Woovi's test notification for each new webhook authenticates and names no charge.
    const tests = await waitFor(() => (received.filter((r) => r.rawBody.includes('data_criacao')).length >= 2 ? received.filter((r) => r.rawBody.includes('data_criacao')) : undefined));
    for (const test of tests) expect(adapter.parseWebhook(asWebhookRequest(test))).toMatchObject({ ok: true, providerPaymentIds: [] });
  });

  it('pays through the sandbox; the signed webhook reaches the receiver and parses', async () => {
    const adapter = adapterWith();
    await adapter.registerWebhook(receiverUrl);
    received.length = 0;
    const charge = await adapter.createCharge(chargeInput({ amount: 5_000 }));
    await simulatePaid(charge.providerPaymentId);

    const hook = await waitFor(() => received.find((r) => r.rawBody.includes('OPENPIX:CHARGE_COMPLETED') && r.rawBody.includes(charge.providerPaymentId)));
    expect(hook.path).toBe('/webhooks/woovi/acc_woovi_1');
    expect(hook.query['hmac']).toBe(WEBHOOK_SECRET);
    expect(hook.headers['x-webhook-signature']).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const parsed = adapter.parseWebhook(asWebhookRequest(hook));
    expect(parsed).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    // A retry of the same notification carries the same event key.
    expect(adapter.parseWebhook(asWebhookRequest(hook))).toEqual(parsed);

    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5_000, nextAction: { type: 'none' } });
    expect(paid.paidAt).toBeInstanceOf(Date);
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
    expect((await stats()).webhooks_sent).toBeGreaterThanOrEqual(1);
  });

  it('rejects a forged and a malformed webhook', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await simulatePaid(charge.providerPaymentId);
    const hook = await waitFor(() => received.find((r) => r.rawBody.includes(charge.providerPaymentId) && r.rawBody.includes('CHARGE_COMPLETED')));
    const unauthenticated = { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    const forgedBody = Buffer.from(hook.rawBody.toString().replace('"value":12345', '"value":1'));
    expect(adapter.parseWebhook(asWebhookRequest(hook, { rawBody: forgedBody }))).toEqual(unauthenticated);
    expect(adapter.parseWebhook(asWebhookRequest(hook, { headers: { ...hook.headers, 'x-webhook-signature': 'Zm9yZ2Vk' } }))).toEqual(unauthenticated);
    expect(adapter.parseWebhook(asWebhookRequest(hook, { query: { hmac: 'whsec_guess' } }))).toEqual(unauthenticated);
    // Signed by the emulator's key, so authentic, but not a body anyone can read.
    const signedGarbage = Buffer.from('{"charge": {"status": "COMPLETED"}}');
    const signature = sign('sha256', signedGarbage, signingKeyPem).toString('base64');
    expect(adapter.parseWebhook(asWebhookRequest(hook, { rawBody: signedGarbage, headers: { 'x-webhook-signature': signature } }))).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
  });

  it('the emulator pays only known charges (what simulate uses)', async () => {
    await expectProviderError(simulatePaid('unknown-charge'), 'not_found', 'not_found');
  });
});

describe('failure classification', () => {
  const createdCount = async () => (await stats()).charges_created;

  it('outage (socket destroyed) → not_created/provider_unavailable, nothing created', async () => {
    const before = await createdCount();
    await setFaults({ account: APP_ID, outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    await setFaults({ outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
  });

  it('connection refused → not_created/provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectProviderError(adapterWith({ baseUrl: `http://127.0.0.1:${port}` }).createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('500 on create → not_created/provider_error; 503 → provider_unavailable', async () => {
    const before = await createdCount();
    await setFaults({ account: APP_ID, error_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_error');
    await setFaults({ account: APP_ID, outage: true, outage_mode: '503' });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
  });

  it('429 → not_created/provider_rate_limited', async () => {
    await setFaults({ account: APP_ID, rate_limit_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_rate_limited');
  });

  it('no answer within timeoutMs on create → ambiguous/provider_timeout; the retry finds or makes the one charge', async () => {
    // The same adapter then makes real calls that must succeed: a timeout a loaded machine cannot miss.
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await setFaults({ account: APP_ID, hang: true });
    const input = chargeInput();
    await expectProviderError(adapter.createCharge(input), 'ambiguous', 'provider_timeout');
    emulator.state.faults.clear();
    const before = await createdCount();
    const charge = await adapter.createCharge(input);
    expect((await adapter.createCharge(input)).providerPaymentId).toBe(charge.providerPaymentId);
    expect(await createdCount()).toBe(before + 1);
  });

  it('latency below the timeout still succeeds', async () => {
    await setFaults({ account: APP_ID, latency_ms: 50 });
    await expect(adapterWith({ timeoutMs: 2_000 }).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });
});

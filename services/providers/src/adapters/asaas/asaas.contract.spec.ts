/**
 * Contract test: the real AsaasAdapter over real HTTP against the Asaas emulator, started
 * in-process on free ports.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, id);

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmNvbnRyYWN0LWE';
const OTHER_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmNvbnRyYWN0LWI';
const WEBHOOK_SECRET = 'whsec_3c1f0d9a7b';

interface Received {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

let emulator: AsaasEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const adapters: AsaasAdapter[] = [];

function adapterWith(overrides: Partial<AdapterContext> = {}): AsaasAdapter {
  const adapter = new AsaasAdapter({
    baseUrl,
    credentials: { api_key: API_KEY },
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
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    description: 'Pedido 4411',
    metadata: { order_id: '4411' },
    idempotencyKey: `pay_contract_${keyCounter}:acc_asaas_1`,
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

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

async function stats(): Promise<{ charges_created: number; by_account: Record<string, number>; webhooks_sent: number }> {
  return (await (await fetch(`${controlUrl}/__control/stats`)).json()) as never;
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }, { api_key: OTHER_KEY }], webhooks: { retries: 3, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `http://127.0.0.1:${ports.apiPort}/v3`;
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
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/asaas/acc_asaas_1?hmac=${WEBHOOK_SECRET}`;
});

afterEach(async () => {
  await fetch(`${controlUrl}/__control/faults`, { method: 'DELETE' });
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('credentials', () => {
  it('accepts the right key', async () => {
    await expect(adapterWith().verifyCredentials()).resolves.toBeUndefined();
  });

  it('reports an unknown key, and a production key sent to the sandbox, as invalid_credentials', async () => {
    await expectProviderError(adapterWith({ credentials: { api_key: '$aact_hmlg_wrong' } }).verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
    await expectProviderError(adapterWith({ credentials: { api_key: '$aact_prod_000abc' } }).createCharge(chargeInput()), 'invalid_credentials', 'invalid_credentials');
  });

  it('never shows its secrets when inspected or serialized', () => {
    const adapter = adapterWith({ signingSecret: 'signing-secret-value-0123456789abcdef' });
    const shown = inspect(adapter, { depth: 10, showHidden: true }) + JSON.stringify(adapter);
    for (const secret of [API_KEY, WEBHOOK_SECRET, 'signing-secret-value']) expect(shown).not.toContain(secret);
  });
});

describe('charges', () => {
  it('creates a pending Pix charge with a valid BR Code, a PNG QR image, its expiry and fee', async () => {
    const charge = await adapterWith().createCharge(chargeInput({ amount: 199_007 }));
    expect(charge.providerPaymentId).toMatch(/^pay_\d+$/);
    expect(charge).toMatchObject({ status: 'pending', amount: 199_007, amountPaid: 0, providerFee: 199, nextAction: { type: 'pix_qr' } });
    const brCode = charge.nextAction.qrCode ?? '';
    const parsed = parsePix(brCode);
    if (hasError(parsed)) throw new Error(`BR Code does not parse: ${parsed.message}`);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(hasError(parsePix(`${brCode.slice(0, -4)}0000`))).toBe(true);
    const png = Buffer.from(charge.nextAction.qrCodeBase64 ?? '', 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The QR code stays payable 12 months after the due date.
    expect(charge.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 360 * 86_400_000);
  });

  it('never creates a second charge for the same idempotency key', async () => {
    await fetch(`${controlUrl}/__control/reset`, { method: 'POST' });
    const adapter = adapterWith();
    const input = chargeInput();
    const first = await adapter.createCharge(input);
    const second = await adapter.createCharge(input);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(second.nextAction.qrCode).toBe(first.nextAction.qrCode);
    const s = await stats();
    expect(s.charges_created).toBe(1);
    expect(Object.values(s.by_account)).toEqual([1]);
  });

  it('reuses the Asaas customer of a document', async () => {
    const adapter = adapterWith();
    await adapter.createCharge(chargeInput({ customer: { name: 'Cliente Único', document: '11.222.333/0001-81' } }));
    await adapter.createCharge(chargeInput({ customer: { name: 'Cliente Único', document: '11222333000181' } }));
    const customers = (await (await fetch(`${baseUrl}/customers?cpfCnpj=11222333000181`, { headers: { access_token: API_KEY, 'user-agent': 't' } })).json()) as { totalCount: number };
    expect(customers.totalCount).toBe(1);
  });

  it('refuses a repeated key with another amount, zero amounts and customers without a document', async () => {
    const adapter = adapterWith();
    const input = chargeInput();
    await adapter.createCharge(input);
    await expectProviderError(adapter.createCharge({ ...input, amount: input.amount + 1 }), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ amount: 0 })), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.createCharge(chargeInput({ customer: { name: 'Sem Documento' } })), 'rejected', 'provider_rejected');
  });

  it('reads a charge back, and not another account’s', async () => {
    const charge = await adapterWith().createCharge(chargeInput());
    await expect(adapterWith().getCharge(charge.providerPaymentId)).resolves.toMatchObject({
      providerPaymentId: charge.providerPaymentId,
      status: 'pending',
      amount: 12_345,
      nextAction: { type: 'pix_qr', qrCode: charge.nextAction.qrCode },
    });
    await expectProviderError(adapterWith({ credentials: { api_key: OTHER_KEY } }).getCharge(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapterWith().getCharge('pay_0000000000000000'), 'not_found', 'not_found');
  });

  it('cancels a pending charge, twice harmlessly, and it can no longer be paid', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
    await expectProviderError(adapter.cancelCharge('pay_0000000000000000'), 'not_found', 'not_found');
  });
});

describe('payment and webhook', () => {
  it('registers the webhook with a fresh authToken, replacing an older one at the same URL', async () => {
    const adapter = adapterWith();
    const first = await adapter.registerWebhook(receiverUrl);
    const second = await adapter.registerWebhook(receiverUrl);
    expect(first.signingSecret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(second.signingSecret).not.toBe(first.signingSecret);
    const accountId = Object.keys((await stats()).by_account)[0] ?? '';
    const ours = emulator.state.webhooks.list(accountId).filter((w) => w.url === receiverUrl);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ authToken: second.signingSecret, sendType: 'SEQUENTIALLY', enabled: true, interrupted: false });
    expect(ours[0]?.events).toEqual(expect.arrayContaining(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_OVERDUE', 'PAYMENT_DELETED', 'PAYMENT_REFUNDED']));
  });

  it('pays through the sandbox; the webhook reaches our URL and parses; the charge reads paid', async () => {
    const { signingSecret } = await adapterWith().registerWebhook(receiverUrl);
    const adapter = adapterWith({ signingSecret });
    received.length = 0;
    const charge = await adapter.createCharge(chargeInput({ amount: 5_000 }));
    await simulatePaid(charge.providerPaymentId);

    const hook = await waitFor(() => received.find((r) => r.rawBody.toString().includes('"PAYMENT_RECEIVED"')));
    expect(hook.path).toBe('/webhooks/asaas/acc_asaas_1');
    expect(hook.query['hmac']).toBe(WEBHOOK_SECRET);
    expect(hook.headers['asaas-access-token']).toBe(signingSecret);
    expect(hook.rawBody.toString()).toContain('"value":50.00');

    const parsed = adapter.parseWebhook(asWebhookRequest(hook));
    expect(parsed).toEqual({ ok: true, providerPaymentIds: [charge.providerPaymentId], eventKey: expect.stringMatching(/^asaas:evt_/) });
    expect(adapter.parseWebhook(asWebhookRequest(hook))).toEqual(parsed);

    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5_000, nextAction: { type: 'none' } });
    expect(paid.endToEndId).toHaveLength(32);
    expect(paid.paidAt).toBeInstanceOf(Date);
    // Canceling a charge that was just paid answers it as paid, it does not throw.
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
    expect((await stats()).webhooks_sent).toBeGreaterThanOrEqual(1);
  });

  it('rejects a forged and a malformed webhook', () => {
    const adapter = adapterWith({ signingSecret: 'the-registered-auth-token-0123456789abcdef' });
    const genuine = {
      subPath: '',
      query: { hmac: WEBHOOK_SECRET },
      headers: { 'asaas-access-token': 'the-registered-auth-token-0123456789abcdef' },
      rawBody: Buffer.from('{"id":"evt_1&1","event":"PAYMENT_RECEIVED","payment":{"id":"pay_1"}}'),
    };
    expect(adapter.parseWebhook(genuine)).toEqual({ ok: true, providerPaymentIds: ['pay_1'], eventKey: 'asaas:evt_1&1' });
    expect(adapter.parseWebhook({ ...genuine, headers: { 'asaas-access-token': 'guess' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    // Our URL secret alone does not pass once an authToken is registered.
    expect(adapter.parseWebhook({ ...genuine, headers: {} })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    expect(adapter.parseWebhook({ ...genuine, rawBody: Buffer.from('{"event":"PAYMENT_RECEIVED"}') })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
    // Without a registered authToken, the URL secret authenticates.
    const unregistered = adapterWith();
    expect(unregistered.parseWebhook({ ...genuine, headers: {} })).toMatchObject({ ok: true });
    expect(unregistered.parseWebhook({ ...genuine, headers: {}, query: { hmac: 'nope' } })).toMatchObject({ ok: false, reason: 'unauthenticated' });
  });

  it('the emulator pays only known charges (what simulate uses)', async () => {
    await expectProviderError(simulatePaid('pay_0000000000000000'), 'not_found', 'not_found');
  });
});

describe('failure classification', () => {
  const createdCount = async () => (await stats()).charges_created;

  it('outage of this account (socket destroyed) → not_created/provider_unavailable', async () => {
    const before = await createdCount();
    await setFaults({ account: API_KEY, outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
  });

  it('global outage (connection dropped) and 503 → not_created/provider_unavailable', async () => {
    await setFaults({ outage: true });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    await setFaults({ account: API_KEY, outage: true, outage_mode: '503' });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('connection refused → not_created/provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectProviderError(adapterWith({ baseUrl: `http://127.0.0.1:${port}/v3` }).createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('500 on every request → not_created/provider_error', async () => {
    const before = await createdCount();
    await setFaults({ account: API_KEY, error_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_error');
    expect(await createdCount()).toBe(before);
  });

  it('500 on the create itself: the read-back finds nothing → not_created/provider_error', async () => {
    const before = await createdCount();
    await setFaults({ account: API_KEY, only: 'create_payment', error_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_error');
    expect(await createdCount()).toBe(before);
  });

  it('429 → not_created/provider_rate_limited', async () => {
    await setFaults({ account: API_KEY, rate_limit_rate: 1 });
    await expectProviderError(adapterWith().createCharge(chargeInput()), 'not_created', 'provider_rate_limited');
  });

  it('no answer to the create within timeoutMs → ambiguous/provider_timeout; the retry makes exactly one charge', async () => {
    // The same adapter then makes real calls that must succeed: a timeout a loaded machine cannot miss.
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await setFaults({ account: API_KEY, only: 'create_payment', hang: true });
    const input = chargeInput();
    await expectProviderError(adapter.createCharge(input), 'ambiguous', 'provider_timeout');
    await fetch(`${controlUrl}/__control/faults`, { method: 'DELETE' });
    const before = await createdCount();
    const charge = await adapter.createCharge(input);
    expect((await adapter.createCharge(input)).providerPaymentId).toBe(charge.providerPaymentId);
    expect(await createdCount()).toBe(before + 1);
  });

  it('no answer to the lookups before the create → not_created/provider_timeout', async () => {
    await setFaults({ account: API_KEY, hang: true });
    await expectProviderError(adapterWith({ timeoutMs: 300 }).createCharge(chargeInput()), 'not_created', 'provider_timeout');
  });

  it('latency below the timeout still succeeds', async () => {
    await setFaults({ account: API_KEY, latency_ms: 50 });
    await expect(adapterWith({ timeoutMs: 2_000 }).createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });
});

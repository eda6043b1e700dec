/**
 * Contract test: the real EfiAdapter over real HTTPS with mTLS against the Efí emulator, started
 * in-process with throwaway openssl certificates and free ports.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { Agent, request } from 'undici';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { createEfiEmulator, generateTestCerts, type EfiEmulator, type TestCerts } from '@orquestra/emulators';
import { ProviderError, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { EfiAdapter, type EfiAdapterOptions } from './efi.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('efi', controlUrl, { client_id: CLIENT.client_id }, id);

jest.setTimeout(30_000);

const CLIENT = { client_id: 'Client_Id_contract_a', client_secret: 'Client_Secret_contract_a', chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' };
const OTHER_CLIENT = { client_id: 'Client_Id_contract_b', client_secret: 'Client_Secret_contract_b', chave: 'financeiro@example.com.br' };
const WEBHOOK_SECRET = 'whsec_3c1f0d9a7b';

interface Received {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

let certs: TestCerts;
let rogueCerts: TestCerts;
let emulator: EfiEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let receiverFailuresLeft = 0;
const adapters: EfiAdapter[] = [];

function adapterWith(overrides: Partial<EfiAdapterOptions> = {}): EfiAdapter {
  const adapter = new EfiAdapter({
    baseUrl,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    certificatePem: certs.clientCertPem,
    privateKeyPem: certs.clientKeyPem,
    caPem: certs.caPem,
    chave: CLIENT.chave,
    timeoutMs: 5_000,
    webhookSecret: WEBHOOK_SECRET,
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
    idempotencyKey: `pay_contract_${keyCounter}:acc_efi_1`,
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

function asWebhookRequest(r: Received, overrides: Partial<WebhookRequest> = {}): WebhookRequest {
  return { subPath: '', query: r.query, headers: r.headers, rawBody: r.rawBody, ...overrides };
}

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function stats(): Promise<{ charges_created: number; by_client: Record<string, number>; webhooks_sent: number }> {
  return (await (await fetch(`${controlUrl}/__control/stats`)).json()) as never;
}

beforeAll(async () => {
  certs = generateTestCerts('efi-contract');
  rogueCerts = generateTestCerts('efi-rogue');
  emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [CLIENT, OTHER_CLIENT],
    webhooks: { retries: 3, baseDelayMs: 20, timeoutMs: 2_000 },
  });
  const ports = await emulator.start();
  baseUrl = `https://localhost:${ports.apiPort}`;
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
      const fail = receiverFailuresLeft > 0 && url.searchParams.get('ignorar') === '/pix';
      if (fail) receiverFailuresLeft -= 1;
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/efi/acc_efi_1`;
});

afterEach(async () => {
  emulator.state.faults.clear();
  await emulator.webhooksIdle();
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  certs?.cleanup();
  rogueCerts?.cleanup();
});

describe('mTLS', () => {
  it('refuses a request without a client certificate', async () => {
    emulator.state.reset();
    const noClientCert = new Agent({ connect: { ca: certs.caPem } });
    try {
      await expect(
        request(`${baseUrl}/v2/cob/abcdefghijklmnopqrstuvwxyz0123`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: CLIENT.chave }),
          dispatcher: noClientCert,
        }).then((r) => r.body.text()),
      ).rejects.toThrow();
    } finally {
      await noClientCert.close();
    }
    expect((await stats()).charges_created).toBe(0);
  });

  it('refuses a client certificate from another CA', async () => {
    const rogue = adapterWith({ certificatePem: rogueCerts.clientCertPem, privateKeyPem: rogueCerts.clientKeyPem });
    await expectProviderError(rogue.verifyCredentials(), 'not_created', 'provider_unavailable');
  });
});

describe('credentials', () => {
  it('accepts the right ones', async () => {
    await expect(adapterWith().verifyCredentials()).resolves.toBeUndefined();
  });

  it('reports wrong ones as invalid_credentials', async () => {
    await expectProviderError(adapterWith({ clientSecret: 'wrong' }).verifyCredentials(), 'invalid_credentials', 'invalid_credentials');
  });

  it('never shows its secrets when inspected or serialized', async () => {
    const adapter = adapterWith();
    await adapter.verifyCredentials();
    const shown = inspect(adapter, { depth: 10, showHidden: true }) + JSON.stringify(adapter);
    for (const secret of [CLIENT.client_secret, certs.clientKeyPem.slice(40, 80), WEBHOOK_SECRET]) expect(shown).not.toContain(secret);
  });

  it('refreshes a token the provider stopped accepting, once', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    emulator.state.revokeTokens();
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'pending' });
  });
});

describe('charges', () => {
  it('creates a pending Pix charge with a valid BR Code and a PNG QR image', async () => {
    const before = Date.now();
    const charge = await adapterWith().createCharge(chargeInput({ amount: 199_007 }));
    expect(charge.providerPaymentId).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(charge).toMatchObject({ status: 'pending', amount: 199_007, amountPaid: 0, nextAction: { type: 'pix_qr' } });

    const brCode = charge.nextAction.qrCode ?? '';
    const parsed = parsePix(brCode);
    if (hasError(parsed)) throw new Error(`BR Code does not parse: ${parsed.message}`);
    expect(isDynamicPix(parsed)).toBe(true);
    // The code points at the charge's payload location, as a dynamic BR Code must.
    expect(isDynamicPix(parsed) && parsed.url).toBe(emulator.state.getCharge(CLIENT.client_id, charge.providerPaymentId).loc.location);
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
    expect((await stats()).charges_created).toBe(1);
    expect((await stats()).by_client).toEqual({ [CLIENT.client_id]: 1 });
  });

  it('refuses a repeated key with another amount', async () => {
    const adapter = adapterWith();
    const input = chargeInput();
    await adapter.createCharge(input);
    await expectProviderError(adapter.createCharge({ ...input, amount: input.amount + 1 }), 'rejected', 'provider_rejected');
  });

  it('rejects methods other than pix, and amounts Pix cannot carry', async () => {
    await expectProviderError(adapterWith().createCharge(chargeInput({ method: 'boleto' })), 'rejected', 'provider_rejected');
    await expectProviderError(adapterWith().createCharge(chargeInput({ amount: 0 })), 'rejected', 'provider_rejected');
  });

  it('reads a charge back, and not another account’s', async () => {
    const charge = await adapterWith().createCharge(chargeInput());
    await expect(adapterWith().getCharge(charge.providerPaymentId)).resolves.toMatchObject({
      providerPaymentId: charge.providerPaymentId,
      status: 'pending',
      amount: 12_345,
    });
    const other = adapterWith({ clientId: OTHER_CLIENT.client_id, clientSecret: OTHER_CLIENT.client_secret, chave: OTHER_CLIENT.chave });
    await expectProviderError(other.getCharge(charge.providerPaymentId), 'not_found', 'not_found');
    await expectProviderError(adapterWith().getCharge('unknownunknownunknownunknown01'), 'not_found', 'not_found');
  });

  it('cancels a pending charge, and answers it as it is when already removed', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput());
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
  });

  it('expires a charge past its expiracao', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput({ expiresInSeconds: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled', failureCode: 'expired' });
    await expectProviderError(simulatePaid(charge.providerPaymentId), 'rejected', 'provider_rejected');
  });
});

describe('payment and webhook', () => {
  it('registers the webhook with the secret and the ignorar suffix, and skips mTLS checking', async () => {
    received.length = 0;
    await adapterWith().registerWebhook(receiverUrl);
    const ping = received[0];
    expect(ping?.path).toBe('/webhooks/efi/acc_efi_1');
    expect(ping?.query).toEqual({ hmac: WEBHOOK_SECRET, ignorar: '' });
    expect(adapterWith().parseWebhook(asWebhookRequest(ping!))).toEqual({ ok: true, providerPaymentIds: [], eventKey: 'efi:teste_webhook' });
    expect(emulator.state.getWebhook(CLIENT.client_id, CLIENT.chave)).toMatchObject({
      webhookUrl: `${receiverUrl}?hmac=${WEBHOOK_SECRET}&ignorar=`,
      skipMtlsChecking: true,
    });
  });

  it('pays through the sandbox, posts <url>/pix, and the webhook parses and authenticates', async () => {
    const adapter = adapterWith();
    await adapter.registerWebhook(receiverUrl);
    received.length = 0;
    const charge = await adapter.createCharge(chargeInput({ amount: 5_000 }));
    await simulatePaid(charge.providerPaymentId);

    const hook = await waitFor(() => received.find((r) => r.query['ignorar'] === '/pix'));
    expect(hook.path).toBe('/webhooks/efi/acc_efi_1');
    expect(hook.query['hmac']).toBe(WEBHOOK_SECRET);
    const body = JSON.parse(hook.rawBody.toString()) as { pix: { txid: string; endToEndId: string; valor: string; chave: string }[] };
    expect(body.pix[0]).toMatchObject({ txid: charge.providerPaymentId, valor: '50.00', chave: CLIENT.chave });

    const parsed = adapter.parseWebhook(asWebhookRequest(hook));
    expect(parsed).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    expect(adapter.parseWebhook(asWebhookRequest(hook))).toEqual(parsed);

    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5_000, nextAction: { type: 'none' } });
    expect(paid.endToEndId).toMatch(/^E[0-9]{8}[0-9]{12}[a-zA-Z0-9]{11}$/);
    expect(paid.endToEndId).toHaveLength(32);
    expect(paid.paidAt).toBeInstanceOf(Date);
    // Canceling a charge that was just paid answers it as paid, it does not throw.
    await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
    expect((await stats()).webhooks_sent).toBeGreaterThanOrEqual(1);
  });

  it('rejects a forged and a malformed webhook', async () => {
    const adapter = adapterWith();
    const genuine = { subPath: 'pix', query: { hmac: WEBHOOK_SECRET, ignorar: '/pix' }, headers: {}, rawBody: Buffer.from('{"pix":[{"endToEndId":"E1","txid":"t"}]}') };
    expect(adapter.parseWebhook(genuine)).toMatchObject({ ok: true, providerPaymentIds: ['t'] });
    expect(adapter.parseWebhook({ ...genuine, query: { hmac: 'whsec_guess', ignorar: '/pix' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    expect(adapter.parseWebhook({ ...genuine, query: {} })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    expect(adapter.parseWebhook({ ...genuine, rawBody: Buffer.from('{"pix":"nope"}') })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
  });

  it('retries a webhook the receiver refused', async () => {
    const adapter = adapterWith();
    await adapter.registerWebhook(receiverUrl);
    received.length = 0;
    receiverFailuresLeft = 2;
    const charge = await adapter.createCharge(chargeInput());
    await simulatePaid(charge.providerPaymentId);
    await emulator.webhooksIdle();
    const deliveries = emulator.state.listDeliveries().filter((d) => d.txids.includes(charge.providerPaymentId));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ outcome: 'delivered' });
    expect(deliveries[0]?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it('the emulator pays only known charges (what simulate uses)', async () => {
    await expectProviderError(simulatePaid('unknownunknownunknownunknown01'), 'not_found', 'not_found');
  });
});

describe('failure classification', () => {
  async function createdCount(): Promise<number> {
    return (await stats()).charges_created;
  }

  it('outage of this account (socket destroyed) → not_created/provider_unavailable', async () => {
    const adapter = adapterWith();
    await adapter.verifyCredentials();
    const before = await createdCount();
    await setFaults({ client_id: CLIENT.client_id, outage: true });
    await expectProviderError(adapter.createCharge(chargeInput()), 'not_created', 'provider_unavailable');
    expect(await createdCount()).toBe(before);
  });

  it('global outage (connection dropped before TLS) → not_created/provider_unavailable', async () => {
    const adapter = adapterWith();
    await setFaults({ outage: true });
    await expectProviderError(adapter.createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('outage answered 503 → not_created/provider_unavailable', async () => {
    const adapter = adapterWith();
    await adapter.verifyCredentials();
    await setFaults({ client_id: CLIENT.client_id, outage: true, outage_mode: '503' });
    await expectProviderError(adapter.createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('connection refused → not_created/provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectProviderError(adapterWith({ baseUrl: `https://127.0.0.1:${port}` }).createCharge(chargeInput()), 'not_created', 'provider_unavailable');
  });

  it('500 on create → not_created/provider_error', async () => {
    const adapter = adapterWith();
    await adapter.verifyCredentials();
    const before = await createdCount();
    await setFaults({ client_id: CLIENT.client_id, error_rate: 1 });
    await expectProviderError(adapter.createCharge(chargeInput()), 'not_created', 'provider_error');
    expect(await createdCount()).toBe(before);
  });

  it('429 → not_created/provider_rate_limited', async () => {
    const adapter = adapterWith();
    await adapter.verifyCredentials();
    await setFaults({ client_id: CLIENT.client_id, rate_limit_rate: 1 });
    await expectProviderError(adapter.createCharge(chargeInput()), 'not_created', 'provider_rate_limited');
  });

  it('no answer within timeoutMs on create → ambiguous/provider_timeout; the retry finds or makes the one charge', async () => {
    // The same adapter then makes real calls that must succeed: a timeout a loaded machine cannot miss.
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await adapter.verifyCredentials();
    await setFaults({ client_id: CLIENT.client_id, hang: true });
    const input = chargeInput();
    await expectProviderError(adapter.createCharge(input), 'ambiguous', 'provider_timeout');
    emulator.state.faults.clear();
    const before = await createdCount();
    const charge = await adapter.createCharge(input);
    const again = await adapter.createCharge(input);
    expect(again.providerPaymentId).toBe(charge.providerPaymentId);
    expect(await createdCount()).toBe(before + 1);
  });

  it('a token request that times out sent no charge → not_created/provider_timeout', async () => {
    const adapter = adapterWith({ timeoutMs: 300 });
    await setFaults({ client_id: CLIENT.client_id, hang: true });
    await expectProviderError(adapter.createCharge(chargeInput()), 'not_created', 'provider_timeout');
  });

  it('latency below the timeout still succeeds', async () => {
    const adapter = adapterWith({ timeoutMs: 2_000 });
    await setFaults({ client_id: CLIENT.client_id, latency_ms: 50 });
    await expect(adapter.createCharge(chargeInput())).resolves.toMatchObject({ status: 'pending' });
  });
});

describe('refunds (devoluções)', () => {
  async function paidCharge(adapter: EfiAdapter, amount: number) {
    const charge = await adapter.createCharge(chargeInput({ amount }));
    await simulatePaid(charge.providerPaymentId);
    return adapter.getCharge(charge.providerPaymentId);
  }

  it('refunds part of a paid Pix: pending, then succeeded, reported with the charge and by a webhook with devolucoes', async () => {
    const adapter = adapterWith();
    await adapter.registerWebhook(receiverUrl);
    const paid = await paidCharge(adapter, 5_000);
    received.length = 0;
    const refund = await adapter.refundCharge({ providerPaymentId: paid.providerPaymentId, refundId: 're_01jcontract0000000000000001', amount: 1_250, reason: 'Produto devolvido', endToEndId: paid.endToEndId! });
    expect(refund).toMatchObject({ providerRefundId: 're01jcontract0000000000000001', refundKey: 're01jcontract0000000000000001', amount: 1_250, status: 'pending', reason: 'Produto devolvido' });

    const hook = await waitFor(() => received.find((r) => r.rawBody.toString().includes('devolucoes')));
    const body = JSON.parse(hook.rawBody.toString()) as { pix: { txid: string; devolucoes: { id: string; valor: string; status: string; rtrId: string; horario: { liquidacao?: string } }[] }[] };
    expect(body.pix[0]?.txid).toBe(paid.providerPaymentId);
    expect(body.pix[0]?.devolucoes[0]).toMatchObject({ id: 're01jcontract0000000000000001', valor: '12.50', status: 'DEVOLVIDO' });
    expect(body.pix[0]?.devolucoes[0]?.rtrId).toMatch(/^D[0-9]{8}[0-9]{12}[a-zA-Z0-9]{11}$/);
    expect(body.pix[0]?.devolucoes[0]?.horario.liquidacao).toBeDefined();
    // A refund notification is a new event (not deduplicated with the payment's).
    expect(adapter.parseWebhook(asWebhookRequest(hook))).toMatchObject({ ok: true, providerPaymentIds: [paid.providerPaymentId] });

    const after = await adapter.getCharge(paid.providerPaymentId);
    expect(after.status).toBe('paid');
    expect(after.refunds).toEqual([expect.objectContaining({ providerRefundId: 're01jcontract0000000000000001', amount: 1_250, status: 'succeeded' })]);
  });

  it('repeating a refund answers the same devolução, never a second one; the end-to-end id is looked up when not given', async () => {
    const adapter = adapterWith();
    const paid = await paidCharge(adapter, 1_000);
    const input = { providerPaymentId: paid.providerPaymentId, refundId: 're_01jcontract0000000000000002', amount: 400 };
    const first = await adapter.refundCharge(input);
    const again = await adapter.refundCharge(input);
    expect(again.providerRefundId).toBe(first.providerRefundId);
    const charge = await adapter.getCharge(paid.providerPaymentId);
    expect(charge.refunds).toHaveLength(1);
  });

  it('refuses more than the Pix value left with the API error → rejected/provider_rejected, creating nothing', async () => {
    const adapter = adapterWith();
    const paid = await paidCharge(adapter, 1_000);
    await adapter.refundCharge({ providerPaymentId: paid.providerPaymentId, refundId: 're_01jcontract0000000000000003', amount: 700, endToEndId: paid.endToEndId! });
    await expectProviderError(
      adapter.refundCharge({ providerPaymentId: paid.providerPaymentId, refundId: 're_01jcontract0000000000000004', amount: 301, endToEndId: paid.endToEndId! }),
      'rejected',
      'provider_rejected',
    );
    const charge = await adapter.getCharge(paid.providerPaymentId);
    expect(charge.refunds?.map((r) => r.amount)).toEqual([700]);
    // Exactly what is left is accepted.
    await expect(
      adapter.refundCharge({ providerPaymentId: paid.providerPaymentId, refundId: 're_01jcontract0000000000000005', amount: 300, endToEndId: paid.endToEndId! }),
    ).resolves.toMatchObject({ amount: 300 });
  });

  it('refuses to refund a charge nobody paid, and an unknown end-to-end id', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(chargeInput({ amount: 1_000 }));
    await expectProviderError(adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_01jcontract0000000000000006', amount: 100 }), 'rejected', 'provider_rejected');
    await expectProviderError(
      adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_01jcontract0000000000000007', amount: 100, endToEndId: 'E09089356202601011200abcdefghijk' }),
      'not_found',
      'not_found',
    );
  });
});

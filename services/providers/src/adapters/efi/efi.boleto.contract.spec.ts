/**
 * Contract test: EfiAdapter's boleto (API Cobranças `POST /v1/charge/one-step`, banking_billet)
 * over real HTTPS with mTLS against the Efí emulator, started in-process: created with its line,
 * idempotent by custom_id, paid through the control route, notified as Efí does
 * (`notification=<token>` to the charge's URL, which carries our secret and the charge id), cancel.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEfiEmulator, generateTestCerts, type EfiEmulator, type TestCerts } from '@orquestra/emulators';
import { capabilitiesOf } from '../adapter-capabilities';
import { RefundNotSupportedError, type CreateChargeInput } from '../provider-adapter';
import { payAtEmulator } from '../testing/contract-kit';
import { EfiAdapter, type EfiAdapterOptions } from './efi.adapter';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'Client_Id_boleto_a', client_secret: 'Client_Secret_boleto_a', chave: '5b1f8e2a-0c1d-4e7f-9a3b-2c4d6e8f0a1b' };
const OTHER = { client_id: 'Client_Id_boleto_b', client_secret: 'Client_Secret_boleto_b', chave: 'outro@example.com.br' };
const SECRET = 'whsec_boleto_5e6f';

let certs: TestCerts;
let emulator: EfiEmulator;
let baseUrl: string;
let controlUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: { query: Record<string, string>; rawBody: Buffer; contentType: string }[] = [];
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
    webhookSecret: SECRET,
    webhookUrl: receiverUrl,
    ...overrides,
  });
  adapters.push(adapter);
  return adapter;
}

const address = { street: 'Avenida Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' };
let counter = 0;
function boleto(overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_efi_boleto_${counter}`,
    method: 'boleto',
    amount: 18_750,
    customer: { name: 'Ana Beatriz Lima', document: '52998224725', email: 'ana@example.com', phone: '+5511987654321', address },
    expiresInSeconds: 3600,
    description: 'Pedido 77',
    metadata: {},
    idempotencyKey: `pay_efi_boleto_${counter}:acc_efi_b_${Date.now()}`,
    ...overrides,
  };
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

beforeAll(async () => {
  certs = generateTestCerts('efi-boleto-contract');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      received.push({ query: Object.fromEntries(url.searchParams), rawBody: Buffer.concat(chunks), contentType: String(req.headers['content-type']) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/efi/acc_efi_b`;
  emulator = createEfiEmulator({ tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem }, clients: [CLIENT, OTHER], webhooks: { retries: 1, baseDelayMs: 20, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  baseUrl = `https://localhost:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('capabilities', () => {
  it('claims pix and boleto; no card and no vault cards (Efí tokenizes cards only in the browser)', () => {
    const capabilities = capabilitiesOf(EfiAdapter);
    expect(capabilities.methods).toEqual(['pix', 'boleto']);
    expect(capabilities.cardVault).toBe(false);
  });
});

describe('boleto (API Cobranças)', () => {
  it('is created with its linha digitável and voucher, due at the end of the due day', async () => {
    const charge = await adapterWith().createCharge(boleto());
    expect(charge.providerPaymentId).toMatch(/^\d+$/);
    expect(charge).toMatchObject({ status: 'pending', amount: 18_750, amountPaid: 0, nextAction: { type: 'boleto' } });
    expect(charge.nextAction.digitableLine).toMatch(/^364\d{44}$/);
    expect(charge.nextAction.url).toMatch(/\/cobrancas\/\d+\/boleto/);
    expect(charge.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 2 * 24 * 3600_000);
    const page = await fetch(charge.nextAction.url ?? '');
    expect(await page.text()).toContain(charge.nextAction.digitableLine);
  });

  it('repeating the idempotency key answers the same boleto (found by custom_id)', async () => {
    const adapter = adapterWith();
    const input = boleto();
    const first = await adapter.createCharge(input);
    const again = await adapterWith().createCharge(input);
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
    expect(again.nextAction.digitableLine).toBe(first.nextAction.digitableLine);
  });

  it('paid through the control route: Efí notifies our URL (secret and charge id), parseWebhook names the charge, getCharge reads paid', async () => {
    const adapter = adapterWith();
    const charge = await adapter.createCharge(boleto());
    await payAtEmulator('efi', controlUrl, { client_id: CLIENT.client_id }, charge.providerPaymentId);
    const hook = await waitFor(() => received.find((r) => r.query['charge_id'] === charge.providerPaymentId));
    expect(hook.contentType).toContain('application/x-www-form-urlencoded');
    expect(hook.query['hmac']).toBe(SECRET);
    const parsed = adapter.parseWebhook({ subPath: '', query: hook.query, headers: {}, rawBody: hook.rawBody });
    expect(parsed).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    // The recurrence and transfer readers leave it to parseWebhook without complaint.
    expect(adapter.parseRecurrenceWebhook({ subPath: '', query: hook.query, headers: {}, rawBody: hook.rawBody })).toMatchObject({ ok: true, events: [] });
    expect(adapter.parseTransferWebhook({ subPath: '', query: hook.query, headers: {}, rawBody: hook.rawBody })).toMatchObject({ ok: true, transfers: [] });
    // A forged delivery without our secret is refused.
    expect(adapter.parseWebhook({ subPath: '', query: { ...hook.query, hmac: 'nope' }, headers: {}, rawBody: hook.rawBody })).toMatchObject({ ok: false, reason: 'unauthenticated' });
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid', amountPaid: 18_750, nextAction: { type: 'none' } });
  });

  it('canceled while open; a paid one is answered as it is', async () => {
    const adapter = adapterWith();
    const open = await adapter.createCharge(boleto());
    await expect(adapter.cancelCharge(open.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
    const paid = await adapter.createCharge(boleto());
    await payAtEmulator('efi', controlUrl, { client_id: CLIENT.client_id }, paid.providerPaymentId);
    await expect(adapter.cancelCharge(paid.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
  });

  it("another account's boleto is not found there", async () => {
    const charge = await adapterWith().createCharge(boleto());
    const other = adapterWith({ clientId: OTHER.client_id, clientSecret: OTHER.client_secret, chave: OTHER.chave });
    await expect(other.getCharge(charge.providerPaymentId)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('without the document or address it is refused before any request; refunds are refused', async () => {
    const sent: string[] = [];
    const adapter = adapterWith({ observe: (exchange) => sent.push(exchange.httpMethod) });
    await expect(adapter.createCharge(boleto({ customer: { name: 'Ana', email: 'a@example.com', address } }))).rejects.toMatchObject({ kind: 'rejected' });
    await expect(adapter.createCharge(boleto({ customer: { name: 'Ana', document: '52998224725' } }))).rejects.toMatchObject({ kind: 'rejected' });
    expect(sent).toEqual([]);
    await expect(adapter.refundCharge({ providerPaymentId: '123456', refundId: 're_1', amount: 100 })).rejects.toBeInstanceOf(RefundNotSupportedError);
    expect(sent).toEqual([]);
  });

  it('a company pays as juridical_person (CNPJ)', async () => {
    const charge = await adapterWith().createCharge(boleto({ customer: { name: 'Padaria Pão Quente Ltda', document: '11222333000181', address } }));
    expect(charge.status).toBe('pending');
  });
});

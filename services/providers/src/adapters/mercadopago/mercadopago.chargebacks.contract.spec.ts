/**
 * Contract test of Mercado Pago card chargebacks: the real MercadoPagoAdapter over real HTTP against
 * the Mercado Pago emulator. The emulator opens and decides a chargeback on an approved card
 * payment through its control port and sends the signed `chargebacks` notification, which a tiny
 * receiver collects for the adapter's own parseWebhook; the adapter then reads the chargeback back
 * (`GET /v1/chargebacks/{id}`), and that read is the report.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from '@orquestra/emulators';
import { capabilitiesOf } from '../adapter-capabilities';
import { ProviderError, type CreateChargeInput, type WebhookRequest } from '../provider-adapter';
import { MercadoPagoAdapter } from './mercadopago.adapter';

jest.setTimeout(30_000);

const ACCOUNT = { access_token: 'TEST-4412987063018275-031014-c0ffee9e2d7a4b3c8e5f1a2b3c4d5e6f-1234567893', webhook_secret: 'mp_assinatura_cb_7d1e' };
const OTHER = { access_token: 'TEST-4412987063018275-031014-0badc0de4e5f60718293a4b5c6d7e8f9-2234567893', webhook_secret: 'mp_assinatura_cb_o_2f' };
const URL_SECRET = 'whsec_chargebacks_41c';

let emulator: MercadoPagoEmulator;
let adapter: MercadoPagoAdapter;
let other: MercadoPagoAdapter;
let controlUrl: string;
let apiUrl: string;
let receiver: Server;
const received: WebhookRequest[] = [];

let counter = 0;
function cardInput(amount: number): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_mp_cb_${counter}`,
    method: 'card',
    amount,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `pay_mp_cb_${counter}:acc_mp_cb_${Date.now()}`,
    card: { token: '', vaultCard: { number: '5031433215406351', expMonth: 11, expYear: 2030, cvc: '987', holderName: 'APRO', brand: 'mastercard' }, installments: 1, brand: 'mastercard' },
  };
}

const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** The `chargebacks` notifications about `chargebackId` received so far, as the adapter gets them. */
async function notifications(chargebackId: string): Promise<WebhookRequest[]> {
  await emulator.webhooksIdle();
  return received.filter((r) => r.query['data.id'] === chargebackId && r.query['type'] === 'chargebacks');
}

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [ACCOUNT, OTHER], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  apiUrl = `http://127.0.0.1:${ports.apiPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://r');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
      received.push({ subPath: '', query: Object.fromEntries(url.searchParams), headers, rawBody: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mercadopago/acc_mp_cb`;
  const context = (account: typeof ACCOUNT) => ({
    baseUrl: `http://127.0.0.1:${ports.apiPort}`,
    credentials: { ...account },
    webhookUrl: `${receiverUrl}?hmac=${URL_SECRET}`,
    webhookSecret: URL_SECRET,
    settings: {},
    timeoutMs: 5_000,
  });
  adapter = new MercadoPagoAdapter(context(ACCOUNT));
  other = new MercadoPagoAdapter(context(OTHER));
});

afterAll(async () => {
  await adapter?.close();
  await other?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

/** The dispute a notification names, read back as the intake does: parseWebhook, then readDispute. */
async function reported(webhook: WebhookRequest) {
  const parsed = adapter.parseWebhook(webhook);
  if (!parsed.ok) throw new Error(`notification refused: ${parsed.reason}`);
  expect(parsed.providerPaymentIds).toEqual([]);
  expect(parsed.disputes).toBeUndefined();
  expect(parsed.disputeIds).toHaveLength(1);
  return adapter.readDispute(parsed.disputeIds?.[0] ?? '');
}

describe('Mercado Pago chargebacks', () => {
  it('opened on a paid card payment: the signed notification names it, the read reports it open with amount and deadline', async () => {
    const charge = await adapter.createCharge(cardInput(25_990));
    expect(charge.status).toBe('paid');
    const opened = await control(`/__control/charges/${charge.providerPaymentId}/chargeback`, { reason: 'fraud' });
    expect(opened.status).toBe(201);
    expect(opened.body['webhook']).toBe('scheduled');
    const chargebackId = String(opened.body['id']);

    const [webhook] = await notifications(chargebackId);
    expect(webhook).toBeDefined();
    const dispute = await reported(webhook as WebhookRequest);
    expect(dispute).toMatchObject({
      providerDisputeId: chargebackId,
      kind: 'chargeback',
      status: 'open',
      providerStatus: 'pending',
      providerPaymentId: charge.providerPaymentId,
      amount: 25_990,
      reason: 'fraud',
      acceptsEvidence: true,
    });
    expect(dispute?.openedAt).toBeInstanceOf(Date);
    expect(dispute?.answerDueAt?.getTime()).toBeGreaterThan(Date.now());
  });

  it('decided won and lost: each decision is a new notification, and the read says won / lost', async () => {
    for (const [outcome, providerStatus] of [
      ['won', 'coverage_applied'],
      ['lost', 'coverage_not_applied'],
    ] as const) {
      const charge = await adapter.createCharge(cardInput(12_000));
      const opened = await control(`/__control/charges/${charge.providerPaymentId}/chargeback`, { amount_cents: 4_550 });
      const chargebackId = String(opened.body['id']);
      const decided = await control(`/__control/chargebacks/${chargebackId}/decide`, { outcome });
      expect(decided.status).toBe(200);
      const hooks = await notifications(chargebackId);
      expect(hooks).toHaveLength(2);
      const dispute = await reported(hooks[1] as WebhookRequest);
      expect(dispute).toMatchObject({ providerDisputeId: chargebackId, status: outcome, providerStatus, providerPaymentId: charge.providerPaymentId, amount: 4_550 });
      // A decided chargeback is not decided again.
      expect((await control(`/__control/chargebacks/${chargebackId}/decide`, { outcome: 'won' })).status).toBe(409);
    }
  });

  it('the body is not the report: a notification altered to name another chargeback fails its signature', async () => {
    const charge = await adapter.createCharge(cardInput(9_900));
    const opened = await control(`/__control/charges/${charge.providerPaymentId}/chargeback`);
    const [webhook] = await notifications(String(opened.body['id']));
    const forged = { ...(webhook as WebhookRequest), query: { ...(webhook as WebhookRequest).query, 'data.id': '234000099999999999' } };
    expect(adapter.parseWebhook(forged)).toMatchObject({ ok: false, reason: 'unauthenticated' });
  });

  it("another account's chargeback, or an unknown one, is not_found; a Pix payment gets none", async () => {
    const charge = await adapter.createCharge(cardInput(5_000));
    const opened = await control(`/__control/charges/${charge.providerPaymentId}/chargeback`);
    const error = await other.readDispute(String(opened.body['id'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'not_found' });
    await expect(adapter.readDispute('234000000000000001')).rejects.toMatchObject({ kind: 'not_found' });
    // A second chargeback on the same payment is refused by the control port.
    expect((await control(`/__control/charges/${charge.providerPaymentId}/chargeback`)).status).toBe(409);
    const pix = await adapter.createCharge({ ...cardInput(5_000), method: 'pix', card: undefined });
    expect((await control(`/__control/charges/${pix.providerPaymentId}/chargeback`)).status).toBe(409);
  });

  it('evidence: the text and links go as one PDF to the documentation upload; the chargeback is then under review and takes no more', async () => {
    const charge = await adapter.createCharge(cardInput(18_000));
    const opened = await control(`/__control/charges/${charge.providerPaymentId}/chargeback`);
    const chargebackId = String(opened.body['id']);
    await adapter.submitDisputeEvidence({ providerDisputeId: chargebackId, text: 'Pedido entregue em 20/11 (assinatura do recebedor: João).', urls: ['https://loja.example/rastreio/BR123'] });
    const read = await adapter.readDispute(chargebackId);
    expect(read).toMatchObject({ status: 'under_review', providerStatus: 'review_pending', acceptsEvidence: false });
    // The upload is stored as Mercado Pago lists it: one PDF.
    const raw = (await (await fetch(`${apiUrl}/v1/chargebacks/${chargebackId}`, { headers: { authorization: `Bearer ${ACCOUNT.access_token}` } })).json()) as { documentation: unknown[] };
    expect(raw.documentation).toEqual([expect.objectContaining({ type: 'application/pdf', description: 'contestacao.pdf' })]);
    const again = await adapter.submitDisputeEvidence({ providerDisputeId: chargebackId, text: 'de novo', urls: [] }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ProviderError);
    expect(again).toMatchObject({ kind: 'rejected' });
    // Decided for the seller after the review: the documents were valid.
    await control(`/__control/chargebacks/${chargebackId}/decide`, { outcome: 'won' });
    expect(await adapter.readDispute(chargebackId)).toMatchObject({ status: 'won', providerStatus: 'coverage_applied' });
    await expect(adapter.submitDisputeEvidence({ providerDisputeId: '234000000000000001', text: 'x', urls: [] })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('capabilities: disputes by webhook, evidence by the documentation upload', () => {
    expect(capabilitiesOf(MercadoPagoAdapter)).toMatchObject({ disputes: true, disputeEvidence: true });
  });
});

/**
 * Contract test of card on Asaas's hosted invoice page: the real AsaasAdapter over real HTTP
 * against the Asaas emulator; the buyer's browser is played by posting the invoice form.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { ProviderError, type CreateChargeInput } from '../provider-adapter';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, id);

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmNhcmQtY29udHJhY3Q';

let emulator: AsaasEmulator;
let adapter: AsaasAdapter;
let controlUrl: string;
let signingSecret: string;
let receiver: Server;
const received: Array<{ headers: Record<string, string>; rawBody: Buffer }> = [];

let counter = 0;
function cardInput(overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_card_${counter}`,
    method: 'card',
    amount: 4_990,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    description: 'Pedido 77',
    metadata: {},
    idempotencyKey: `pay_card_${counter}:card:acc_asaas_1`,
    ...overrides,
  };
}

/** The buyer types a card on the invoice page (a plain form post, as the browser sends it). */
async function typeCard(invoiceUrl: string, number: string): Promise<number> {
  const body = new URLSearchParams({ number, holder: 'MARIA A SOUZA', expiry: '11/38', cvv: '321' }).toString();
  const answer = await fetch(invoiceUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  return answer.status;
}

async function webhookFor(paymentId: string, event: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const hit = received.find((r) => r.rawBody.toString().includes(`"${event}"`) && r.rawBody.toString().includes(paymentId));
    if (hit) return { subPath: '', query: {}, headers: hit.headers, rawBody: hit.rawBody };
    if (Date.now() > deadline) throw new Error(`no ${event} webhook for ${paymentId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 1, baseDelayMs: 20 } });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), rawBody: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const context = {
    baseUrl: `http://127.0.0.1:${ports.apiPort}/v3`,
    credentials: { api_key: API_KEY },
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/asaas`,
    webhookSecret: 'whsec_card',
    settings: {},
    timeoutMs: 5_000,
  };
  const registering = new AsaasAdapter(context);
  signingSecret = (await registering.registerWebhook(context.webhookUrl)).signingSecret ?? '';
  await registering.close();
  adapter = new AsaasAdapter({ ...context, signingSecret });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('card on the Asaas hosted invoice page', () => {
  it('creates a CREDIT_CARD charge without card data, pending, whose next action redirects to invoiceUrl', async () => {
    const charge = await adapter.createCharge(cardInput());
    expect(charge).toMatchObject({ status: 'pending', amount: 4_990, amountPaid: 0, nextAction: { type: 'redirect', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/i\/[a-z0-9]+$/) } });
    const page = await fetch(charge.nextAction.url ?? '');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="card-number"');
    // The same key answers the same charge (externalReference), never a second one.
    const again = await adapter.createCharge({ ...cardInput(), idempotencyKey: `pay_card_${counter - 1}:card:acc_asaas_1`, paymentId: `pay_card_${counter - 1}` });
    expect(again.providerPaymentId).toBe(charge.providerPaymentId);
    // Read back, still the redirect.
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'pending', nextAction: { type: 'redirect', url: charge.nextAction.url } });
  });

  it('an approved card: PAYMENT_CONFIRMED parses with no decline and the charge reads paid', async () => {
    const charge = await adapter.createCharge(cardInput());
    expect(await typeCard(charge.nextAction.url ?? '', '4111111111111111')).toBe(303);
    const parsed = adapter.parseWebhook(await webhookFor(charge.providerPaymentId, 'PAYMENT_CONFIRMED'));
    expect(parsed).toEqual({ ok: true, providerPaymentIds: [charge.providerPaymentId], eventKey: expect.stringMatching(/^asaas:evt_/) });
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid', amountPaid: 4_990, nextAction: { type: 'none' } });
  });

  it('a refused card and a risk-analysis reproval: the webhook reports a card_declined with the Portuguese reason', async () => {
    for (const [number, event] of [
      ['4000000000000002', 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED'],
      ['4100000000000019', 'PAYMENT_REPROVED_BY_RISK_ANALYSIS'],
    ] as const) {
      const charge = await adapter.createCharge(cardInput());
      expect(await typeCard(charge.nextAction.url ?? '', number)).toBe(402);
      const parsed = adapter.parseWebhook(await webhookFor(charge.providerPaymentId, event));
      expect(parsed).toMatchObject({
        ok: true,
        providerPaymentIds: [charge.providerPaymentId],
        cardDeclines: { [charge.providerPaymentId]: { failureCode: 'card_declined', failureReason: expect.stringContaining('O banco emissor recusou o cartão') } },
      });
      // Asaas keeps the charge open: removing it (what the intake does) makes it unpayable.
      await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'pending' });
      await expect(adapter.cancelCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'canceled' });
      expect(await typeCard(charge.nextAction.url ?? '', '4111111111111111')).toBe(409);
    }
  });

  it('refuses a card token on the field (Asaas takes cards only on its page) and needs the CPF/CNPJ', async () => {
    const error = await adapter.createCharge(cardInput({ card: { token: 'pm_card_visa', installments: 1 } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'card.token', publicMessage: expect.stringContaining('checkout hospedado') } });
    await expect(adapter.createCharge(cardInput({ customer: { name: 'Sem Documento' } }))).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('the emulator confirms a card charge as if the approved test card were typed', async () => {
    const charge = await adapter.createCharge(cardInput());
    await simulatePaid(charge.providerPaymentId);
    await expect(adapter.getCharge(charge.providerPaymentId)).resolves.toMatchObject({ status: 'paid' });
  });
});

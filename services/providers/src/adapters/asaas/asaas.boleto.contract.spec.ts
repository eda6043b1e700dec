/**
 * Contract test of boleto at Asaas (`billingType BOLETO`): the real AsaasAdapter over real HTTP
 * against the Asaas emulator. Create → next action (linha digitável from
 * `/identificationField`, the slip at `bankSlipUrl`) → paid through the control port
 * (`PAYMENT_RECEIVED`) → read paid; an idempotent repeat; overdue and removal; a customer without
 * CPF/CNPJ refused before any request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAsaasEmulator, isValidDigitableLine, type AsaasEmulator } from '@orquestra/emulators';
import { boletoDueDate, endOfDueDate } from '../../domain/boleto-due-date';
import { ProviderError, type CreateChargeInput } from '../provider-adapter';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator, startWebhookRecorder, until, type WebhookRecorder } from '../testing/contract-kit';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmJvbGV0by1jb250cmFjdA';

let emulator: AsaasEmulator;
let adapter: AsaasAdapter;
let apiUrl: string;
let controlUrl: string;
let recorder: WebhookRecorder;

let counter = 0;
function boletoInput(overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_boleto_${counter}`,
    method: 'boleto',
    amount: 15_990,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3 * 86_400,
    description: 'Pedido 901',
    metadata: {},
    idempotencyKey: `pay_boleto_${counter}:boleto:acc_asaas_1`,
    ...overrides,
  };
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 1, baseDelayMs: 20 } });
  const ports = await emulator.start();
  apiUrl = `http://127.0.0.1:${ports.apiPort}/v3`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  recorder = await startWebhookRecorder();
  const context = { baseUrl: apiUrl, credentials: { api_key: API_KEY }, webhookUrl: `${recorder.url}/webhooks/asaas`, webhookSecret: 'whsec_boleto', settings: {}, timeoutMs: 5_000 };
  const registering = new AsaasAdapter(context);
  const signingSecret = (await registering.registerWebhook(context.webhookUrl)).signingSecret ?? '';
  await registering.close();
  adapter = new AsaasAdapter({ ...context, signingSecret });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await recorder?.close();
});

describe('boleto at Asaas', () => {
  it('is an Asaas method', () => {
    expect(AsaasAdapter.methods).toContain('boleto');
  });

  it('creates a BOLETO due on the platform due date: pending, next action boleto with a valid 47-digit line and the slip; paid through the control port, PAYMENT_RECEIVED names it, it reads paid with its date', async () => {
    const created = new Date();
    const charge = await adapter.createCharge(boletoInput());
    expect(charge).toMatchObject({ status: 'pending', amount: 15_990, amountPaid: 0, nextAction: { type: 'boleto' } });
    const line = charge.nextAction.digitableLine ?? '';
    expect(isValidDigitableLine(line)).toBe(true);
    // The amount in centavos closes the line (FEBRABAN field 5).
    expect(line.slice(-10)).toBe('0000015990');
    const dueDate = boletoDueDate(created);
    expect(charge.expiresAt).toEqual(endOfDueDate(dueDate));
    const slip = await fetch(charge.nextAction.url ?? '');
    expect(slip.status).toBe(200);
    expect(await slip.text()).toContain(line);
    // Asaas holds it as a BOLETO with that due date.
    const held = await (await fetch(`${apiUrl}/payments/${charge.providerPaymentId}`, { headers: { access_token: API_KEY, 'user-agent': 'contract-spec' } })).json();
    expect(held).toMatchObject({ billingType: 'BOLETO', dueDate, status: 'PENDING' });

    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, charge.providerPaymentId);
    const webhook = await until(async () => recorder.received.find((r) => r.rawBody.toString().includes('"PAYMENT_RECEIVED"') && r.rawBody.toString().includes(charge.providerPaymentId)), 5_000, 'PAYMENT_RECEIVED');
    expect(adapter.parseWebhook(webhook)).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 15_990, nextAction: { type: 'none' } });
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(paid.endToEndId).toBeUndefined();
  });

  it('a repeat with the same idempotency key answers the same boleto and creates no other', async () => {
    const input = boletoInput();
    const first = await adapter.createCharge(input);
    const before = emulator.state.stats().charges_created;
    const again = await adapter.createCharge(input);
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
    expect(again.nextAction).toEqual(first.nextAction);
    expect(emulator.state.stats().charges_created).toBe(before);
  });

  it('past its due date it reads OVERDUE at Asaas and stays pending with its line; canceling removes it (DELETE)', async () => {
    const charge = await adapter.createCharge(boletoInput());
    const moved = await fetch(`${controlUrl}/__control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 4 }) });
    expect(moved.status).toBe(200);
    try {
      const held = await (await fetch(`${apiUrl}/payments/${charge.providerPaymentId}`, { headers: { access_token: API_KEY, 'user-agent': 'contract-spec' } })).json();
      expect(held).toMatchObject({ status: 'OVERDUE' });
      const overdue = await adapter.getCharge(charge.providerPaymentId);
      expect(overdue).toMatchObject({ status: 'pending', nextAction: { type: 'boleto', digitableLine: charge.nextAction.digitableLine } });
      const canceled = await adapter.cancelCharge(charge.providerPaymentId);
      expect(canceled).toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    } finally {
      await fetch(`${controlUrl}/__control/reset`, { method: 'POST' });
    }
  });

  it('a customer without CPF/CNPJ is refused on customer.document before any request', async () => {
    let requests = 0;
    const counting: Server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    const blind = new AsaasAdapter({ baseUrl: `http://127.0.0.1:${(counting.address() as AddressInfo).port}/v3`, credentials: { api_key: API_KEY }, webhookUrl: '', webhookSecret: 'x', settings: {}, timeoutMs: 2_000 });
    try {
      const error = await blind.createCharge(boletoInput({ customer: { name: 'Sem Documento', email: 'sem@example.com' } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'rejected', param: { name: 'customer.document', publicMessage: expect.stringContaining('CPF ou CNPJ') } });
      expect(requests).toBe(0);
    } finally {
      await blind.close();
      await new Promise<void>((resolve) => counting.close(() => resolve()));
    }
  });
});

/**
 * Contract test of Asaas card chargebacks: the real AsaasAdapter over real HTTP against the Asaas
 * emulator. The adapter registers its webhook (with the chargeback events); the emulator opens,
 * moves and decides chargebacks through its control port and sends the webhooks with the
 * `asaas-access-token`, which a tiny receiver collects for the adapter's own parseWebhook.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import type { CreateChargeInput, WebhookRequest } from '../provider-adapter';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, id);

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmNoYXJnZWJhY2tz';

let emulator: AsaasEmulator;
let adapter: AsaasAdapter;
let controlUrl: string;
let receiver: Server;
const received: Array<{ headers: Record<string, string>; rawBody: Buffer }> = [];

let counter = 0;
function cardInput(amount: number): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_cb_${counter}`,
    method: 'card',
    amount,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com' },
    expiresInSeconds: 3600,
    description: 'Pedido contestado',
    metadata: {},
    idempotencyKey: `pay_cb_${counter}:card:acc_asaas_cb`,
  };
}

const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** Every webhook of `event` about `paymentId` received so far, as the adapter gets them. */
async function webhooks(paymentId: string, event: string): Promise<WebhookRequest[]> {
  await emulator.webhooksIdle();
  return received
    .filter((r) => {
      const body = JSON.parse(r.rawBody.toString()) as { event: string; payment?: { id?: string } };
      return body.event === event && body.payment?.id === paymentId;
    })
    .map((r) => ({ subPath: '', query: {}, headers: r.headers, rawBody: r.rawBody }));
}

async function paidCard(amount: number): Promise<string> {
  const charge = await adapter.createCharge(cardInput(amount));
  await simulatePaid(charge.providerPaymentId);
  return charge.providerPaymentId;
}

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, baseDelayMs: 20 } });
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
    webhookSecret: 'whsec_chargebacks',
    settings: {},
    timeoutMs: 5_000,
  };
  const registering = new AsaasAdapter(context);
  const signingSecret = (await registering.registerWebhook(context.webhookUrl)).signingSecret ?? '';
  await registering.close();
  adapter = new AsaasAdapter({ ...context, signingSecret });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('Asaas card chargebacks', () => {
  it('opened on a confirmed card charge: PAYMENT_CHARGEBACK_REQUESTED reports an open chargeback; a redelivery has the same key; dispute then won', async () => {
    const id = await paidCard(15_990);
    const opened = await control(`/__control/charges/${id}/chargeback`, { reason: 'MERCHANDISE_NOT_RECEIVED' });
    expect(opened).toMatchObject({ status: 200, body: { status: 'CHARGEBACK_REQUESTED', chargeback: { status: 'REQUESTED', reason: 'MERCHANDISE_NOT_RECEIVED' } } });

    const [requested] = await webhooks(id, 'PAYMENT_CHARGEBACK_REQUESTED');
    if (!requested) throw new Error('no PAYMENT_CHARGEBACK_REQUESTED');
    const parsed = adapter.parseWebhook(requested);
    expect(parsed).toEqual({
      ok: true,
      providerPaymentIds: [id],
      eventKey: expect.stringMatching(/^asaas:evt_/),
      disputes: [{ providerDisputeId: id, kind: 'chargeback', status: 'open', providerStatus: 'REQUESTED', providerPaymentId: id, amount: 15_990, reason: 'MERCHANDISE_NOT_RECEIVED', acceptsEvidence: false }],
    });
    // The charge itself still reads paid (money received; the chargeback is its own flow).
    await expect(adapter.getCharge(id)).resolves.toMatchObject({ status: 'paid', amountPaid: 15_990 });

    expect((await control(`/__control/charges/${id}/chargeback/redeliver`)).status).toBe(200);
    const again = await webhooks(id, 'PAYMENT_CHARGEBACK_REQUESTED');
    expect(again).toHaveLength(2);
    expect(adapter.parseWebhook(again[1]!)).toMatchObject({ ok: true, eventKey: (parsed as { eventKey: string }).eventKey });

    expect((await control(`/__control/charges/${id}/chargeback/decide`, { decision: 'dispute' })).body).toMatchObject({ status: 'CHARGEBACK_DISPUTE', chargeback: { status: 'IN_DISPUTE' } });
    const [disputed] = await webhooks(id, 'PAYMENT_CHARGEBACK_DISPUTE');
    expect(adapter.parseWebhook(disputed!)).toMatchObject({ ok: true, disputes: [{ providerDisputeId: id, status: 'under_review', providerStatus: 'IN_DISPUTE' }] });

    expect((await control(`/__control/charges/${id}/chargeback/decide`, { decision: 'won' })).body).toMatchObject({ status: 'AWAITING_CHARGEBACK_REVERSAL', chargeback: { status: 'REVERSED' } });
    const [won] = await webhooks(id, 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL');
    expect(adapter.parseWebhook(won!)).toMatchObject({ ok: true, disputes: [{ providerDisputeId: id, status: 'won', providerStatus: 'REVERSED' }] });
    // Decided: nothing more to decide.
    expect((await control(`/__control/charges/${id}/chargeback/decide`, { decision: 'lost' })).status).toBe(409);
  });

  it('lost without a dispute (DONE) and after one (DISPUTE_LOST)', async () => {
    const undisputed = await paidCard(7_000);
    expect((await control(`/__control/charges/${undisputed}/chargeback`)).status).toBe(200);
    expect((await control(`/__control/charges/${undisputed}/chargeback/decide`, { decision: 'lost' })).body).toMatchObject({ chargeback: { status: 'DONE' } });
    const [done] = await webhooks(undisputed, 'PAYMENT_UPDATED');
    expect(adapter.parseWebhook(done!)).toMatchObject({ ok: true, disputes: [{ status: 'lost', providerStatus: 'DONE', amount: 7_000 }] });

    const disputed = await paidCard(8_000);
    await control(`/__control/charges/${disputed}/chargeback`);
    await control(`/__control/charges/${disputed}/chargeback/decide`, { decision: 'dispute' });
    await control(`/__control/charges/${disputed}/chargeback/decide`, { decision: 'lost' });
    const [lost] = await webhooks(disputed, 'PAYMENT_UPDATED');
    expect(adapter.parseWebhook(lost!)).toMatchObject({ ok: true, disputes: [{ status: 'lost', providerStatus: 'DISPUTE_LOST' }] });
  });

  it('the emulator refuses a chargeback on an unpaid charge or twice on one', async () => {
    const pending = await adapter.createCharge(cardInput(1_000));
    expect((await control(`/__control/charges/${pending.providerPaymentId}/chargeback`)).status).toBe(409);
    const id = await paidCard(1_000);
    expect((await control(`/__control/charges/${id}/chargeback`)).status).toBe(200);
    expect((await control(`/__control/charges/${id}/chargeback`)).status).toBe(409);
    expect((await control('/__control/charges/pay_nope/chargeback')).status).toBe(404);
  });
});

/**
 * Contract test of Pagar.me card chargebacks: the real PagarmeAdapter over real HTTP against the
 * Pagar.me emulator. The webhook is configured with the adapter's own event list (as the owner ticks
 * it in the dashboard); the emulator charges back a paid card charge through its control port and
 * sends `charge.chargedback`, which a recorder collects for the adapter's parseWebhook; the adapter
 * then reads the charge back (`GET /charges/{id}`), and that read is the report.
 */
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import { capabilitiesOf } from '../adapter-capabilities';
import type { CreateChargeInput, WebhookRequest } from '../provider-adapter';
import { registerWebhookAtEmulator, startWebhookRecorder, until, type WebhookRecorder } from '../testing/contract-kit';
import { PagarmeAdapter } from './pagarme.adapter';

jest.setTimeout(30_000);

const KEY = 'sk_test_chargebackKeyA01';
const URL_SECRET = 'whsec_pagarme_cb_5e2';

let emulator: PagarmeEmulator;
let adapter: PagarmeAdapter;
let controlUrl: string;
let recorder: WebhookRecorder;

let counter = 0;
function cardInput(amount: number, number = '4000000000000010'): CreateChargeInput {
  counter += 1;
  return {
    paymentId: `pay_pg_cb_${counter}`,
    method: 'card',
    amount,
    customer: { name: 'Maria Aparecida Souza', document: '52998224725', email: 'maria@example.com', phone: '+55 11 91234-5678' },
    expiresInSeconds: 3600,
    description: 'Pedido contestado',
    metadata: {},
    idempotencyKey: `pay_pg_cb_${counter}:acc_pagarme_cb_${Date.now()}`,
    card: { token: '', vaultCard: { number, expMonth: 10, expYear: new Date().getUTCFullYear() + 2, cvc: '456', holderName: 'MARIA A SOUZA', brand: 'visa' }, installments: 1 },
  };
}

const chargeback = async (chargeId: string) => {
  const response = await fetch(`${controlUrl}/__control/charges/${chargeId}/chargeback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** The deliveries of `type` about `chargeId` received so far. */
const deliveries = (chargeId: string, type: string): WebhookRequest[] =>
  recorder.received.filter((r) => {
    const body = JSON.parse(r.rawBody.toString()) as { type?: string; data?: { id?: string } };
    return body.type === type && body.data?.id === chargeId;
  });

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  recorder = await startWebhookRecorder();
  const webhookUrl = `${recorder.url}/webhooks/pagarme/acc_pagarme_cb?hmac=${URL_SECRET}`;
  adapter = new PagarmeAdapter({ baseUrl: `http://127.0.0.1:${ports.apiPort}/core/v5`, credentials: { secret_key: KEY }, webhookUrl, webhookSecret: URL_SECRET, settings: {}, timeoutMs: 5_000 });
  const registration = await registerWebhookAtEmulator(adapter, { provider: 'pagarme', controlUrl, credentials: { secret_key: KEY } }, webhookUrl);
  expect(registration.events).toContain('charge.chargedback');
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await recorder?.close();
});

describe('Pagar.me chargebacks', () => {
  it('a paid card charge charged back: charge.chargedback names it, the charge read back reports the chargeback open', async () => {
    const charge = await adapter.createCharge(cardInput(31_400));
    expect(charge.status).toBe('paid');
    const opened = await chargeback(charge.providerPaymentId);
    expect(opened).toMatchObject({ status: 200, body: { status: 'chargedback', webhooks_scheduled: 1 } });

    const [webhook] = await until(async () => {
      const found = deliveries(charge.providerPaymentId, 'charge.chargedback');
      return found.length > 0 ? found : undefined;
    });
    const parsed = adapter.parseWebhook(webhook as WebhookRequest);
    expect(parsed).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId], disputeIds: [charge.providerPaymentId] });
    const dispute = await adapter.readDispute(charge.providerPaymentId);
    expect(dispute).toEqual({
      providerDisputeId: charge.providerPaymentId,
      kind: 'chargeback',
      status: 'open',
      providerStatus: 'chargedback',
      providerPaymentId: charge.providerPaymentId,
      amount: 31_400,
      acceptsEvidence: false,
    });
    // The charge itself is no longer paid.
    expect(await adapter.getCharge(charge.providerPaymentId)).toMatchObject({ status: 'canceled', failureCode: 'chargedback' });
  });

  it('the body is only a hint: a charge that is not charged back reads as no dispute', async () => {
    const charge = await adapter.createCharge(cardInput(7_700));
    expect(await adapter.readDispute(charge.providerPaymentId)).toBeUndefined();
    const payment = adapter.parseWebhook({ subPath: '', query: { hmac: URL_SECRET }, headers: {}, rawBody: Buffer.from(JSON.stringify({ id: 'hook_x1', type: 'charge.paid', data: { id: charge.providerPaymentId } })) });
    expect(payment).toMatchObject({ ok: true, providerPaymentIds: [charge.providerPaymentId] });
    expect(payment.ok && payment.disputeIds).toBeFalsy();
    // Without our secret in the URL nothing is read.
    expect(adapter.parseWebhook({ subPath: '', query: {}, headers: {}, rawBody: Buffer.from(JSON.stringify({ id: 'hook_x2', type: 'charge.chargedback', data: { id: charge.providerPaymentId } })) })).toMatchObject({
      ok: false,
      reason: 'unauthenticated',
    });
    await expect(adapter.readDispute('ch_unknown0000000000000')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('only a paid card charge is charged back; a second chargeback is refused', async () => {
    const pix = await adapter.createCharge({ ...cardInput(5_000), method: 'pix', card: undefined });
    expect((await chargeback(pix.providerPaymentId)).status).toBe(409);
    const charge = await adapter.createCharge(cardInput(5_000));
    expect((await chargeback(charge.providerPaymentId)).status).toBe(200);
    expect((await chargeback(charge.providerPaymentId)).status).toBe(409);
  });

  it('capabilities: disputes by webhook, no evidence through the API', () => {
    expect(capabilitiesOf(PagarmeAdapter)).toMatchObject({ disputes: true, disputeEvidence: false });
  });
});

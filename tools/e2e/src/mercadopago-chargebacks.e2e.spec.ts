import { randomBytes } from 'node:crypto';
import { api, eventually } from './support/api';
import { disputeWatch } from './support/disputes';
import { connectEmulatorAccount, emulatorControl, newMerchant, tokenizeCard } from './support/merchant';

/**
 * Mercado Pago card chargebacks through the whole stack: a saved card paid at Mercado Pago (the
 * emulator), then a chargeback opened there arrives by the signed `chargebacks` notification, which
 * names the chargeback only; the providers service reads it back (`GET /v1/chargebacks/{id}`) and it
 * becomes our dispute; the defense goes to Mercado Pago's documentation upload (a PDF of the text and
 * links) and the dispute is under review; its decision (coverage applied or not) closes it. Runs on a
 * merchant of its own whose only provider account is Mercado Pago, so other suites' routing is unchanged.
 */
jest.setTimeout(60_000);

type Json = Record<string, any>;

let key = '';
let mpAccount = '';

const BUYER = { name: 'Ana Lima', email: 'ana.lima@exemplo.com.br', document: '529.982.247-25', phone: '+55 11 98845-1155' };

const control = (path: string, body: unknown = {}) => emulatorControl('mercadopago', path, body);

const { eventsOf: eventsOfDispute, eventsInclude, statusOf } = disputeWatch(() => key);

/** A saved Visa (Mercado Pago's test card; cardholder APRO is approved) paid at Mercado Pago. */
async function paidCard(amount: number): Promise<Json> {
  const saved = await api('POST', '/v1/cards', { key, body: { vault_token: await tokenizeCard(key, '4235647728025682', { expMonth: 11 }), holder_name: 'APRO', customer: { name: BUYER.name, document: BUYER.document, email: BUYER.email } } });
  expect({ status: saved.status, error: saved.body.error }).toMatchObject({ status: 201 });
  const paid = await api('POST', '/v1/payments', { key, body: { method: 'card', amount, customer: BUYER, card: { id: saved.body.id, installments: 1 } } });
  expect({ status: paid.status, error: paid.body.error }).toMatchObject({ status: 201 });
  expect(paid.body).toMatchObject({ method: 'card', status: 'succeeded', provider: 'mercadopago', provider_account_id: mpAccount });
  return paid.body;
}

async function ourDispute(paymentId: string): Promise<Json> {
  return eventually(
    async () => ((await api('GET', `/v1/disputes?payment_id=${paymentId}`, { key })).body.data as Json[])[0],
    `the Mercado Pago chargeback of ${paymentId} in GET /v1/disputes`,
    20_000,
  );
}

beforeAll(async () => {
  ({ key } = await newMerchant('Loja Chargebacks Mercado Pago'));
  const credentials = { access_token: `TEST-${randomBytes(12).toString('hex')}`, webhook_secret: randomBytes(12).toString('hex') };
  mpAccount = await connectEmulatorAccount(key, 'mercadopago', 'Mercado Pago chargebacks', credentials);
});

describe('Mercado Pago card chargebacks', () => {
  it('a chargeback opened at Mercado Pago is read back into one open dispute; the defense puts it under review; lost closes it', async () => {
    const payment = await paidCard(15_990);
    const opened = await control(`/__control/charges/${payment.provider_payment_id}/chargeback`, { reason: 'fraud' });
    expect(opened.status).toBe(201);

    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ object: 'dispute', kind: 'chargeback', status: 'open', amount: 15_990, provider: 'mercadopago', payment_id: payment.id, evidence: null });
    expect(dispute.reason).toMatch(/fraud/);
    await eventsInclude(dispute.id, 'dispute.created');

    // The defense goes to Mercado Pago's documentation upload as one PDF: under review.
    const answered = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { key, body: { text: 'Pedido entregue em 20/11.', urls: ['https://loja.example/rastreio/BR123'] } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'under_review', evidence: { text: 'Pedido entregue em 20/11.', urls: ['https://loja.example/rastreio/BR123'] } });
    await eventsInclude(dispute.id, 'dispute.updated');

    expect((await control(`/__control/chargebacks/${String(opened.body['id'])}/decide`, { outcome: 'lost' })).status).toBe(200);
    const lost = await statusOf(dispute.id, 'lost');
    expect(lost.closed_at).toEqual(expect.any(String));
    await eventsInclude(dispute.id, 'dispute.closed');
    expect((await eventsOfDispute(dispute.id)).sort()).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  });

  it('a chargeback decided for the seller (coverage applied) is won and leaves the payment alone', async () => {
    const payment = await paidCard(7_000);
    const opened = await control(`/__control/charges/${payment.provider_payment_id}/chargeback`);
    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ kind: 'chargeback', status: 'open', amount: 7_000 });
    expect((await control(`/__control/chargebacks/${String(opened.body['id'])}/decide`, { outcome: 'won' })).status).toBe(200);
    await statusOf(dispute.id, 'won');
    await eventsInclude(dispute.id, 'dispute.closed');
    expect((await api('GET', `/v1/payments/${payment.id}`, { key })).body).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
  });
});

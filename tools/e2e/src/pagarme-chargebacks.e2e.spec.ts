import { randomBytes } from 'node:crypto';
import { api, eventually } from './support/api';
import { disputeWatch } from './support/disputes';
import { connectEmulatorAccount, emulatorControl, newMerchant, tokenizeCard } from './support/merchant';

/**
 * Pagar.me card chargebacks through the whole stack: a saved card paid at Pagar.me (the emulator),
 * then charged back there: `charge.chargedback` (ticked with the other events when the account was
 * connected) names the charge, the providers service reads it back (`GET /charges/{id}` says
 * `chargedback`) and it becomes our open dispute. Pagar.me takes no defense by API (422
 * dispute_evidence_not_supported) and its API shows no outcome, so the dispute stays open. Runs on
 * a merchant of its own whose only provider account is Pagar.me.
 */
jest.setTimeout(60_000);

type Json = Record<string, any>;

let key = '';
let pagarmeAccount = '';

const BUYER = { name: 'Ana Lima', email: 'ana.lima@exemplo.com.br', document: '529.982.247-25', phone: '+55 11 98845-1155' };

const control = (path: string, body: unknown = {}) => emulatorControl('pagarme', path, body);

const { eventsOf: eventsOfDispute, eventsInclude } = disputeWatch(() => key);

/** A saved Visa (the emulator approves 4000000000000010) paid at Pagar.me. */
async function paidCard(amount: number): Promise<Json> {
  const saved = await api('POST', '/v1/cards', { key, body: { vault_token: await tokenizeCard(key, '4000000000000010', { expMonth: 11 }), holder_name: 'ANA LIMA', customer: { name: BUYER.name, document: BUYER.document, email: BUYER.email } } });
  expect({ status: saved.status, error: saved.body.error }).toMatchObject({ status: 201 });
  const paid = await api('POST', '/v1/payments', { key, body: { method: 'card', amount, customer: BUYER, card: { id: saved.body.id, installments: 1 } } });
  expect({ status: paid.status, error: paid.body.error }).toMatchObject({ status: 201 });
  expect(paid.body).toMatchObject({ method: 'card', status: 'succeeded', provider: 'pagarme', provider_account_id: pagarmeAccount });
  return paid.body;
}

async function ourDispute(paymentId: string): Promise<Json> {
  return eventually(
    async () => ((await api('GET', `/v1/disputes?payment_id=${paymentId}`, { key })).body.data as Json[])[0],
    `the Pagar.me chargeback of ${paymentId} in GET /v1/disputes`,
    20_000,
  );
}

beforeAll(async () => {
  ({ key } = await newMerchant('Loja Chargebacks Pagar.me'));
  const credentials = { secret_key: `sk_test_${randomBytes(12).toString('hex')}` };
  pagarmeAccount = await connectEmulatorAccount(key, 'pagarme', 'Pagar.me chargebacks', credentials);
});

describe('Pagar.me card chargebacks', () => {
  it('a charge charged back at Pagar.me is read back into one open dispute; no defense by API', async () => {
    const payment = await paidCard(12_990);
    const opened = await control(`/__control/charges/${payment.provider_payment_id}/chargeback`);
    expect(opened.status).toBe(200);

    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ object: 'dispute', kind: 'chargeback', status: 'open', amount: 12_990, provider: 'pagarme', payment_id: payment.id, evidence: null });
    await eventsInclude(dispute.id, 'dispute.created');

    const answered = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { key, body: { text: 'Pedido entregue em 20/11.', urls: [] } });
    expect(answered.status).toBe(422);
    expect(answered.body.error).toMatchObject({ code: 'dispute_evidence_not_supported', param: 'id' });
    expect((await api('GET', `/v1/disputes?payment_id=${payment.id}`, { key })).body.data).toHaveLength(1);
    expect(await eventsOfDispute(dispute.id)).toEqual(['dispute.created']);
  });
});

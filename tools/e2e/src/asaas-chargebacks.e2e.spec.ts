import { randomBytes, randomUUID } from 'node:crypto';
import { api, eventually } from './support/api';
import { disputeWatch } from './support/disputes';
import { connectEmulatorAccount, emulatorControl, newMerchant } from './support/merchant';

/**
 * Asaas card chargebacks through the whole stack: a chargeback opened at Asaas (the emulator) on a
 * card payment confirmed on its invoice page arrives by the `PAYMENT_CHARGEBACK_*` webhooks (with
 * the account's `asaas-access-token`) and becomes our dispute; Asaas takes no defense by API here
 * (422 dispute_evidence_not_supported); Asaas's decision closes it. Runs on a merchant of its own
 * (created here through the accounts service) whose payments name its Asaas account, so other
 * suites' routing is unchanged.
 */
jest.setTimeout(60_000);

type Json = Record<string, any>;

let key = '';
let asaasAccount = '';

const control = (path: string, body: unknown = {}) => emulatorControl('asaas', path, body);

const { eventsOf: eventsOfDispute, eventsInclude, statusOf } = disputeWatch(() => key);

/** A card payment confirmed on Asaas's invoice page (the control port types the approved card). */
async function paidCard(amount: number): Promise<Json> {
  const created = await api('POST', '/v1/payments', {
    key,
    idempotencyKey: randomUUID(),
    body: { method: 'card', amount, description: 'Pedido contestado', customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' }, provider_account_id: asaasAccount },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: 'pending', provider: 'asaas', provider_account_id: asaasAccount, next_action: { type: 'redirect' } });
  expect((await control(`/__control/charges/${created.body.provider_payment_id}/pay`)).status).toBe(200);
  return eventually(
    async () => {
      const p = (await api('GET', `/v1/payments/${created.body.id}`, { key })).body;
      return p.status === 'succeeded' ? p : undefined;
    },
    `card payment ${created.body.id} confirmed`,
    15_000,
  );
}

async function ourDispute(paymentId: string): Promise<Json> {
  return eventually(
    async () => ((await api('GET', `/v1/disputes?payment_id=${paymentId}`, { key })).body.data as Json[])[0],
    `the Asaas chargeback of ${paymentId} in GET /v1/disputes`,
    20_000,
  );
}

beforeAll(async () => {
  ({ key } = await newMerchant('Loja Chargebacks Asaas'));
  const credentials = { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` };
  asaasAccount = await connectEmulatorAccount(key, 'asaas', 'Asaas chargebacks', credentials);
});

describe('Asaas card chargebacks', () => {
  it('a chargeback opened at Asaas is one open dispute however often redelivered; no defense by API; dispute then lost returns the money', async () => {
    const payment = await paidCard(15_990);
    const opened = await control(`/__control/charges/${payment.provider_payment_id}/chargeback`, { reason: 'MERCHANDISE_NOT_RECEIVED' });
    expect(opened.status).toBe(200);

    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ object: 'dispute', kind: 'chargeback', status: 'open', amount: 15_990, provider: 'asaas', payment_id: payment.id, evidence: null });
    expect(dispute.reason).toMatch(/MERCHANDISE_NOT_RECEIVED/);
    await eventsInclude(dispute.id, 'dispute.created');

    for (let i = 0; i < 3; i += 1) expect((await control(`/__control/charges/${payment.provider_payment_id}/chargeback/redeliver`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await api('GET', `/v1/disputes?payment_id=${payment.id}`, { key })).body.data).toHaveLength(1);
    expect(await eventsOfDispute(dispute.id)).toEqual(['dispute.created']);

    // Asaas wants uploaded documents; we send none by API: answered in Asaas's dashboard.
    const answered = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { key, body: { text: 'Pedido entregue em 20/11.', urls: ['https://loja.example/rastreio/BR123'] } });
    expect(answered.status).toBe(422);
    expect(answered.body.error).toMatchObject({ code: 'dispute_evidence_not_supported', param: 'id' });
    expect((await api('GET', `/v1/disputes/${dispute.id}`, { key })).body).toMatchObject({ status: 'open', evidence: null });

    // Documents sent from Asaas's dashboard: in dispute.
    expect((await control(`/__control/charges/${payment.provider_payment_id}/chargeback/decide`, { decision: 'dispute' })).status).toBe(200);
    await statusOf(dispute.id, 'under_review');
    await eventsInclude(dispute.id, 'dispute.updated');

    expect((await control(`/__control/charges/${payment.provider_payment_id}/chargeback/decide`, { decision: 'lost' })).status).toBe(200);
    const lost = await statusOf(dispute.id, 'lost');
    expect(lost.closed_at).toEqual(expect.any(String));
    const after = await eventually(async () => {
      const p = (await api('GET', `/v1/payments/${payment.id}`, { key })).body;
      return p.status === 'refunded' ? p : undefined;
    }, 'the payment refunded by the lost chargeback', 15_000);
    expect(after).toMatchObject({ status: 'refunded', amount_refunded: 15_990 });
    await eventsInclude(dispute.id, 'dispute.closed');
    expect((await eventsOfDispute(dispute.id)).sort()).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  });

  it('a chargeback Asaas reverses (won) leaves the payment alone', async () => {
    const payment = await paidCard(7_000);
    expect((await control(`/__control/charges/${payment.provider_payment_id}/chargeback`)).status).toBe(200);
    const dispute = await ourDispute(payment.id);
    expect(dispute).toMatchObject({ kind: 'chargeback', status: 'open', amount: 7_000 });
    await eventsInclude(dispute.id, 'dispute.created');

    expect((await control(`/__control/charges/${payment.provider_payment_id}/chargeback/decide`, { decision: 'won' })).status).toBe(200);
    await statusOf(dispute.id, 'won');
    await eventsInclude(dispute.id, 'dispute.closed');
    expect((await api('GET', `/v1/payments/${payment.id}`, { key })).body).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    expect((await eventsOfDispute(dispute.id)).sort()).toEqual(['dispute.closed', 'dispute.created']);
  });
});

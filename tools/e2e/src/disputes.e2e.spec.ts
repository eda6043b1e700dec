import { api, createPix, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/** A paid Pix (created and paid through the provider's webhook). */
async function paidPix(amount = 5000) {
  const payment = await createPix({ amount });
  const paid = await api('POST', `/v1/payments/${payment.id}/simulate`);
  expect(paid.body.status).toBe('succeeded');
  return paid.body;
}

const settled = (id: string, status: string) =>
  eventually(
    async () => {
      const current = await api('GET', `/v1/disputes/${id}`);
      return current.body.status === status ? current.body : undefined;
    },
    `dispute ${id} to become ${status}`,
    15_000,
  );

describe('disputes (MED for Pix)', () => {
  it('simulates a MED on a paid Pix, lists it as open and refuses a second one', async () => {
    const payment = await paidPix();
    const before = Date.now();
    const created = await api('POST', `/v1/payments/${payment.id}/simulate-dispute`, { body: {} });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'dispute', kind: 'med', status: 'open', amount: 5000, payment_id: payment.id, provider: 'efi', evidence: null });
    expect(created.body.id).toMatch(/^dp_[0-9a-z]{26}$/);
    const due = Date.parse(created.body.due_at) - before;
    expect(due).toBeGreaterThan(6.9 * 86_400_000);
    expect(due).toBeLessThan(7.1 * 86_400_000);

    const open = await api('GET', `/v1/disputes?status=open&payment_id=${payment.id}`);
    expect(open.body.data.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
    const again = await api('POST', `/v1/payments/${payment.id}/simulate-dispute`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'payment_not_disputable' });
  });

  it('refuses a dispute on an unpaid payment and in live mode, with Portuguese errors', async () => {
    const pending = await createPix();
    const refused = await api('POST', `/v1/payments/${pending.id}/simulate-dispute`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/pago/);
    const live = await api('POST', `/v1/payments/${pending.id}/simulate-dispute`, { body: {}, key: stackInfo().liveKey });
    expect([403, 404]).toContain(live.status);
    const restricted = await api('GET', '/v1/disputes', { key: stackInfo().restrictedTestKey });
    expect(restricted.status).toBe(403);
    expect(restricted.body.error.code).toBe('restricted_key');
  });

  it('validates evidence and takes it where the provider accepts evidence (Efí), once', async () => {
    const payment = await paidPix();
    const dispute = (await api('POST', `/v1/payments/${payment.id}/simulate-dispute`, { body: { amount: 1000 } })).body;
    const missing = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { body: { urls: [] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'text' });
    const badUrl = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { body: { text: 'x', urls: ['notaurl'] } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.param).toBe('urls[0]');
    // Efí answers MED infraction notices through its API: evidence is taken.
    const answered = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { body: { text: 'Pedido entregue.', urls: ['https://loja.example/nf/1.pdf'] } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'under_review', evidence: { text: 'Pedido entregue.', urls: ['https://loja.example/nf/1.pdf'] } });
    const twice = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { body: { text: 'De novo.' } });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'dispute_not_open' });
  });

  it('refuses evidence for a provider that takes none through its API (Woovi), leaving the dispute open', async () => {
    const key = stackInfo().providersMerchant.testKey;
    const credentials = { app_id: `Client_Id_disputes_${Date.now()}` };
    await fetch(`${stackInfo().controlUrls.woovi}/__control/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    const account = await api('POST', '/v1/provider-accounts', { key, body: { provider: 'woovi', name: 'Woovi disputas', credentials, priority: 90 } });
    expect(account.status).toBe(201);
    const payment = await createPix({ provider_account_id: account.body.id }, key);
    const paid = await api('POST', `/v1/payments/${payment.id}/simulate`, { key });
    expect(paid.body.status).toBe('succeeded');
    const dispute = (await api('POST', `/v1/payments/${payment.id}/simulate-dispute`, { key, body: {} })).body;
    expect(dispute).toMatchObject({ kind: 'med', provider: 'woovi', status: 'open' });
    const refused = await api('POST', `/v1/disputes/${dispute.id}/evidence`, { key, body: { text: 'Pedido entregue.' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'dispute_evidence_not_supported' });
    expect(refused.body.error.message).toMatch(/painel do provedor/);
    expect((await api('GET', `/v1/disputes/${dispute.id}`, { key })).body.status).toBe('open');
  });

  it('a dispute lost in the sandbox returns the amount to the payer as a provider refund', async () => {
    const payment = await paidPix(3000);
    const dispute = (await api('POST', `/v1/payments/${payment.id}/simulate-dispute`, { body: { amount: 1200 } })).body;
    await api('POST', `/v1/disputes/${dispute.id}/evidence`, { body: { text: 'losing_evidence' } });
    const lost = await settled(dispute.id, 'lost');
    expect(lost.closed_at).toEqual(expect.any(String));
    const after = (await api('GET', `/v1/payments/${payment.id}`)).body;
    expect(after).toMatchObject({ status: 'partially_refunded', amount_refunded: 1200 });
    expect(after.refunds).toEqual([expect.objectContaining({ amount: 1200, status: 'succeeded', source: 'provider' })]);
    const types = (await api('GET', `/v1/events?limit=50`)).body.data.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['dispute.created', 'dispute.updated', 'dispute.closed']));
  });

  it('a dispute won in the sandbox leaves the payment untouched', async () => {
    const payment = await paidPix(2000);
    const dispute = (await api('POST', `/v1/payments/${payment.id}/simulate-dispute`, { body: {} })).body;
    await api('POST', `/v1/disputes/${dispute.id}/evidence`, { body: { text: 'Entregue. winning_evidence' } });
    await settled(dispute.id, 'won');
    expect((await api('GET', `/v1/payments/${payment.id}`)).body).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
  });
});

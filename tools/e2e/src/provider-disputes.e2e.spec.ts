/**
 * Disputes opened at the providers, through the whole stack and the emulators: a Woovi MED arrives
 * by its signed webhook, an Efí infração is picked up by the providers service's poll, and evidence
 * on an Efí dispute is sent to Efí as its defense.
 */
import { api, createPix, emulator, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

jest.setTimeout(60_000);

type Json = Record<string, any>;

async function wooviControl(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${stackInfo().controlUrls.woovi}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const disputesOfPayment = async (paymentId: string, key?: string) =>
  (await api('GET', `/v1/disputes?payment_id=${paymentId}`, key ? { key } : {})).body.data as Json[];

const eventsOfDispute = async (disputeId: string, key?: string) =>
  ((await api('GET', `/v1/events?limit=100`, key ? { key } : {})).body.data as Json[]).filter((e) => e.data?.object?.id === disputeId).map((e) => e.type as string);

async function statusOf(id: string, status: string, key?: string): Promise<Json> {
  return eventually(
    async () => {
      const current = await api('GET', `/v1/disputes/${id}`, key ? { key } : {});
      return current.body.status === status ? current.body : undefined;
    },
    `dispute ${id} to become ${status}`,
    20_000,
  );
}

describe('disputes opened at the providers', () => {
  let wooviKey: string;
  let wooviAccount: string;

  beforeAll(async () => {
    wooviKey = stackInfo().providersMerchant.testKey;
    const credentials = { app_id: `Client_Id_med_${Date.now()}` };
    await wooviControl('POST', '/__control/accounts', credentials);
    const account = await api('POST', '/v1/provider-accounts', { key: wooviKey, body: { provider: 'woovi', name: 'Woovi MED', credentials, priority: 95 } });
    expect(account.status).toBe(201);
    wooviAccount = account.body.id;
  });

  it('a Woovi MED arrives by webhook as an open dispute with its events, once however often it is redelivered, and its acceptance returns the money', async () => {
    const payment = await createPix({ amount: 6_000, provider_account_id: wooviAccount }, wooviKey);
    expect((await api('POST', `/v1/payments/${payment.id}/simulate`, { key: wooviKey })).body.status).toBe('succeeded');
    const paid = (await api('GET', `/v1/payments/${payment.id}`, { key: wooviKey })).body;

    const opened = await wooviControl('POST', `/__control/charges/${encodeURIComponent(paid.provider_payment_id)}/dispute`, { value: 2_500, disputeReason: 'Golpe' });
    expect(opened.status).toBe(201);
    expect(opened.body.webhooks).toBeGreaterThan(0);

    const listed = await eventually(
      async () => {
        const open = (await api('GET', '/v1/disputes?status=open', { key: wooviKey })).body.data as Json[];
        return open.find((d) => d.payment_id === payment.id);
      },
      'the Woovi MED in GET /v1/disputes?status=open',
      20_000,
    );
    expect(listed).toMatchObject({ object: 'dispute', kind: 'med', status: 'open', amount: 2_500, provider: 'woovi', payment_id: payment.id, evidence: null });
    expect(listed.reason).toMatch(/Golpe/);
    expect(Date.parse(listed.due_at)).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    await eventually(async () => ((await eventsOfDispute(listed.id, wooviKey)).includes('dispute.created') ? true : undefined), 'dispute.created', 15_000);

    // Woovi retries the same notification: nothing new.
    for (let i = 0; i < 3; i += 1) expect((await wooviControl('POST', `/__control/disputes/${opened.body.id}/redeliver`)).body.webhooks).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await disputesOfPayment(payment.id, wooviKey)).toHaveLength(1);
    expect(await eventsOfDispute(listed.id, wooviKey)).toEqual(['dispute.created']);

    // Woovi takes no defense by API.
    const refused = await api('POST', `/v1/disputes/${listed.id}/evidence`, { key: wooviKey, body: { text: 'Pedido entregue.' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'dispute_evidence_not_supported', param: 'id' });
    expect(refused.body.error.message).toMatch(/painel do provedor/);

    expect((await wooviControl('POST', `/__control/disputes/${opened.body.id}/decide`, { status: 'ACCEPTED' })).status).toBe(200);
    const lost = await statusOf(listed.id, 'lost', wooviKey);
    expect(lost.closed_at).toEqual(expect.any(String));
    const after = (await api('GET', `/v1/payments/${payment.id}`, { key: wooviKey })).body;
    expect(after).toMatchObject({ status: 'partially_refunded', amount_refunded: 2_500 });
    await eventually(async () => ((await eventsOfDispute(listed.id, wooviKey)).includes('dispute.closed') ? true : undefined), 'dispute.closed', 15_000);
    expect((await eventsOfDispute(listed.id, wooviKey)).sort()).toEqual(['dispute.closed', 'dispute.created']);
  });

  it('an Efí infração is picked up by the poll; evidence reaches Efí as the defense and the dispute is under_review, then won', async () => {
    const payment = await createPix({ amount: 8_000 });
    expect((await api('POST', `/v1/payments/${payment.id}/simulate`)).body.status).toBe('succeeded');
    const paid = (await api('GET', `/v1/payments/${payment.id}`)).body;
    expect(paid.end_to_end_id).toMatch(/^E/);

    const infracao = await emulator('POST', `/__control/pix/${paid.end_to_end_id}/infracao`, { valor: '80.00', razao: 'Fraude relatada' });
    expect(infracao).toMatchObject({ status: 'ABERTA', defesa: null });

    const [dispute] = await eventually(
      async () => {
        const found = await disputesOfPayment(payment.id);
        return found.length > 0 ? found : undefined;
      },
      'the polled Efí infração',
      20_000,
    );
    expect(dispute).toMatchObject({ kind: 'med', status: 'open', amount: 8_000, provider: 'efi', payment_id: payment.id });
    expect(dispute!.due_at).toBe(infracao.dadosAnalise.prazoFinalizacao);

    const answered = await api('POST', `/v1/disputes/${dispute!.id}/evidence`, { body: { text: 'Produto entregue ao comprador.', urls: ['https://loja.example/nf/88.pdf'] } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'under_review', evidence: { text: 'Produto entregue ao comprador.', urls: ['https://loja.example/nf/88.pdf'] } });
    const atEfi = await emulator('GET', `/__control/infracoes/${infracao.idInfracao}`);
    expect(atEfi).toMatchObject({
      status: 'EM_DEFESA',
      defesa: { analise: 'rejeitado', justificativa: 'Produto entregue ao comprador.\n\nComprovantes:\nhttps://loja.example/nf/88.pdf' },
    });

    // Later polls keep seeing it; only Efí's decision moves it again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await api('GET', `/v1/disputes/${dispute!.id}`)).body.status).toBe('under_review');
    await emulator('POST', `/__control/infracoes/${infracao.idInfracao}/decide`, { status: 'REJEITADA' });
    await statusOf(dispute!.id, 'won');
    expect((await api('GET', `/v1/payments/${payment.id}`)).body).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    expect(await disputesOfPayment(payment.id)).toHaveLength(1);
    await eventually(async () => ((await eventsOfDispute(dispute!.id)).includes('dispute.closed') ? true : undefined), 'dispute.closed', 15_000);
    expect((await eventsOfDispute(dispute!.id)).sort()).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  });
});

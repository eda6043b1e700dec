/**
 * Contract test: Efí infrações (MED) from the emulator over real HTTPS with mTLS. A received Pix
 * gets a notice through the control port; the real adapter lists it and sends its defense, which
 * the control port then shows.
 */
import { createEfiEmulator, generateTestCerts, type EfiEmulator, type TestCerts } from '@orquestra/emulators';
import { EfiAdapter } from './efi.adapter';
import { payAtEmulator } from '../testing/contract-kit';
/** Pays at the emulator as `POST /payments/{id}/simulate` does. */
const simulatePaid = (id: string) => payAtEmulator('efi', controlUrl, { client_id: CLIENT.client_id }, id);

jest.setTimeout(30_000);

const CLIENT = { client_id: 'Client_Id_infracoes', client_secret: 'Client_Secret_infracoes', chave: 'b1f0a7c2-2d44-4d7e-9a55-3f7f2b8e0c11' };

let certs: TestCerts;
let emulator: EfiEmulator;
let adapter: EfiAdapter;
let controlUrl: string;

const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  certs = generateTestCerts('efi-infracoes');
  emulator = createEfiEmulator({ tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem }, clients: [CLIENT] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = new EfiAdapter({
    baseUrl: `https://localhost:${ports.apiPort}`,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    certificatePem: certs.clientCertPem,
    privateKeyPem: certs.clientKeyPem,
    caPem: certs.caPem,
    chave: CLIENT.chave,
    timeoutMs: 5_000,
    webhookSecret: 'whsec_infracoes',
  });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  certs?.cleanup();
});

describe('Efí infrações (emulator)', () => {
  it('lists a notice opened on a received Pix, takes one defense, and shows the decision', async () => {
    const charge = await adapter.createCharge({
      paymentId: 'pay_inf_1', method: 'pix', amount: 7_500, customer: { name: 'João Lima', document: '52998224725' },
      expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_inf_1:acc_efi',
    });
    await simulatePaid(charge.providerPaymentId);
    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid).toMatchObject({ status: 'paid', endToEndId: expect.stringMatching(/^E/) });
    const window = () => ({ since: new Date(Date.now() - 86_400_000), until: new Date(Date.now() + 1_000) });
    await expect(adapter.listDisputes(window())).resolves.toEqual([]);

    expect((await control('POST', '/__control/pix/E000unknown/infracao', {})).status).toBe(404);
    const opened = await control('POST', `/__control/pix/${paid.endToEndId!}/infracao`, { valor: '50.00', razao: 'Golpe' });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'ABERTA', valor: '50.00', endToEndId: paid.endToEndId, defesa: null });
    expect((await control('POST', `/__control/pix/${paid.endToEndId!}/infracao`, {})).status).toBe(409);
    const id = String(opened.body['idInfracao']);

    const [listed, ...others] = await adapter.listDisputes(window());
    expect(others).toEqual([]);
    expect(listed).toMatchObject({ providerDisputeId: id, kind: 'med', status: 'open', providerStatus: 'ABERTA', endToEndId: paid.endToEndId, amount: 5_000, reason: 'Golpe', acceptsEvidence: true });
    expect(listed!.answerDueAt!.getTime() - listed!.openedAt!.getTime()).toBe(7 * 86_400_000);
    // Outside the window (opened after `fim`): not listed.
    await expect(adapter.listDisputes({ since: new Date(Date.now() - 2 * 86_400_000), until: new Date(Date.now() - 86_400_000) })).resolves.toEqual([]);

    await adapter.submitDisputeEvidence({ providerDisputeId: id, text: 'Pedido entregue.', urls: ['https://loja.example/nf/7.pdf'] });
    const defended = await control('GET', `/__control/infracoes/${id}`);
    expect(defended.body).toMatchObject({ status: 'EM_DEFESA', defesa: { analise: 'rejeitado', justificativa: 'Pedido entregue.\n\nComprovantes:\nhttps://loja.example/nf/7.pdf' } });
    await expect(adapter.submitDisputeEvidence({ providerDisputeId: id, text: 'De novo.', urls: [] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(adapter.submitDisputeEvidence({ providerDisputeId: 'nao-existe', text: 'x', urls: [] })).rejects.toMatchObject({ kind: 'not_found' });
    expect((await adapter.listDisputes(window()))[0]).toMatchObject({ status: 'under_review', providerStatus: 'EM_DEFESA' });

    expect((await control('POST', `/__control/infracoes/${id}/decide`, { status: 'REJEITADA' })).body).toMatchObject({ status: 'REJEITADA' });
    expect((await adapter.listDisputes(window()))[0]).toMatchObject({ status: 'won', providerStatus: 'REJEITADA' });
  });
});

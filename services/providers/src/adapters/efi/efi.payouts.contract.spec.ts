/**
 * Contract test: the real EfiAdapter's balance and Pix sent over HTTPS/mTLS against the Efí
 * emulator (the shared payout contract, testing/payout-contract-kit.ts), plus what is Efí's own:
 * the balance a paid charge fills, the send's idEnvio, and an answer held past the client's timeout.
 */
import { createEfiEmulator, generateTestCerts, type EfiEmulator, type TestCerts } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import { ProviderError } from '../provider-adapter';
import { payAtEmulator, startWebhookRecorder, type WebhookRecorder } from '../testing/contract-kit';
import { payoutContract, payoutControl, type PayoutContractTarget } from '../testing/payout-contract-kit';
import { EfiAdapter } from './efi.adapter';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'Client_Id_payout_contract', client_secret: 'Client_Secret_payout_contract', chave: '7d9f0c1e-2a3b-4c5d-8e6f-0a1b2c3d4e5f' };
const WEBHOOK_SECRET = 'whsec_payout_e1f2';

let certs: TestCerts;
let emulator: EfiEmulator;
let apiUrl: string;
let controlUrl: string;
let adapter: EfiAdapter;
let receiver: WebhookRecorder;

const adapterWith = (timeoutMs = 5_000) =>
  new EfiAdapter({
    baseUrl: apiUrl,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    certificatePem: certs.clientCertPem,
    privateKeyPem: certs.clientKeyPem,
    caPem: certs.caPem,
    chave: CLIENT.chave,
    timeoutMs,
    webhookSecret: WEBHOOK_SECRET,
  });

const target = (): PayoutContractTarget => ({
  adapter,
  control: { url: controlUrl, param: 'client_id', account: CLIENT.client_id },
  destination: { type: 'pix_key', keyType: 'email', key: 'financeiro@loja.example' },
  received: receiver.received,
});
const control = payoutControl(target);

beforeAll(async () => {
  certs = generateTestCerts('efi-payout-contract');
  emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [CLIENT],
    webhooks: { retries: 0, timeoutMs: 2_000 },
    sweepMs: 0,
  });
  const ports = await emulator.start();
  apiUrl = `https://localhost:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = adapterWith();
  receiver = await startWebhookRecorder();
  await adapter.registerWebhook(`${receiver.url}/webhooks/efi/pa_payout`);
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await receiver?.close();
  certs?.cleanup();
});

describe('Efí payouts: the shared contract', () => {
  payoutContract(target, (transfers, idEnvio) => (transfers as Array<{ idEnvio: string }>).filter((t) => t.idEnvio === idEnvio).length);
});

describe('Efí payouts: its own', () => {
  it('pays only to Pix keys by API', () => {
    expect(EfiAdapter.payoutDestinations).toEqual(['pix_key']);
    expect(adapter.payoutDestinations).toEqual(['pix_key']);
  });

  it('a Pix received fills the balance', async () => {
    const before = await adapter.getBalance();
    const charge = await adapter.createCharge({
      paymentId: 'pay_payout_balance',
      idempotencyKey: 'pay_payout_balance:pa_payout',
      method: 'pix',
      amount: 7_777,
      description: 'Pedido',
      customer: { name: 'Ana Souza' },
      metadata: {},
      expiresInSeconds: 3_600,
    });
    await payAtEmulator('efi', controlUrl, CLIENT, charge.providerPaymentId);
    expect((await adapter.getBalance()).available).toBe(before.available + 7_777);
  });

  it('sends under an idEnvio made of our payout id, paying from the account key to the destination key', async () => {
    await control.behaviour('hang');
    await control.credit(1_000);
    const payoutId = newId('payout');
    const made = await adapter.createTransfer({ payoutId, amount: 1_000, destination: { type: 'pix_key', keyType: 'cpf', key: '52998224725' } });
    expect(made.providerTransferId).toBe(payoutId.replace('_', ''));
    expect(made.providerStatus).toBe('EM_PROCESSAMENTO');
    expect(made.endToEndId).toMatch(/^E/);
    const sent = (await control.transfers()) as Array<{ idEnvio: string; chave: string; favorecido: { chave: string } }>;
    expect(sent.find((t) => t.idEnvio === made.providerTransferId)).toMatchObject({ chave: CLIENT.chave, favorecido: { chave: '52998224725' } });
  });

  it('an answer held past the client timeout is ambiguous; the send is found by its payout id', async () => {
    const impatient = adapterWith(1_000);
    try {
      await control.behaviour('paid', 50);
      await control.credit(2_000);
      await control.withholdAnswer(4_000);
      const payoutId = newId('payout');
      const error = await impatient.createTransfer({ payoutId, amount: 2_000, destination: { type: 'pix_key', keyType: 'evp', key: '123e4567-e89b-12d3-a456-426614174000' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'ambiguous', normalizedCode: 'provider_timeout' });
      const found = await impatient.getTransfer({ payoutId });
      expect(found.payoutId).toBe(payoutId);
      expect((await control.transfers()).filter((t) => (t as { idEnvio: string }).idEnvio === found.providerTransferId)).toHaveLength(1);
    } finally {
      await impatient.close();
    }
  });
});

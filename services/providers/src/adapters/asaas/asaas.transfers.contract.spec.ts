/**
 * Contract test for balance and transfers: the real AsaasAdapter over real HTTP against the Asaas
 * emulator (the shared payout contract, testing/payout-contract-kit.ts), plus what is Asaas's own:
 * the balance a paid charge and a refund move, the TRANSFER_* webhooks, the one transfer found by
 * our payout id in `externalReference` (Asaas has no idempotency key), and Pix-key-only destinations.
 */
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import { ProviderError, type AdapterContext } from '../provider-adapter';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator, startWebhookRecorder, until, type WebhookRecorder } from '../testing/contract-kit';
import { payoutContract, payoutControl, type PayoutContractTarget } from '../testing/payout-contract-kit';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnRyYW5zZmVycy1h';
const URL_SECRET = 'whsec_transfers_a77';

let emulator: AsaasEmulator;
let controlUrl: string;
let context: AdapterContext;
let adapter: AsaasAdapter;
let receiver: WebhookRecorder;
const extra: AsaasAdapter[] = [];

const target = (): PayoutContractTarget => ({
  adapter,
  control: { url: controlUrl, param: 'account', account: API_KEY },
  destination: { type: 'pix_key', keyType: 'email', key: 'financeiro@loja.com.br' },
  received: receiver.received,
});
const control = payoutControl(target);

interface AsaasTransferView {
  id: string;
  externalReference: string | null;
}
/** Asaas makes a transfer per create: "one" means one carrying the payout id of the given transfer. */
const carryingSameReference = (transfers: unknown[], providerTransferId: string) => {
  const views = transfers as AsaasTransferView[];
  const reference = views.find((t) => t.id === providerTransferId)?.externalReference;
  return reference ? views.filter((t) => t.externalReference === reference).length : 0;
};

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 50 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = await startWebhookRecorder();
  const webhookUrl = `${receiver.url}/webhooks/asaas/acc_t?hmac=${URL_SECRET}`;
  context = { baseUrl: `http://127.0.0.1:${ports.apiPort}/v3`, credentials: { api_key: API_KEY }, webhookUrl, webhookSecret: URL_SECRET, settings: {}, timeoutMs: 1_000 };
  const registration = await new AsaasAdapter(context).registerWebhook(webhookUrl);
  context = { ...context, ...(registration.signingSecret ? { signingSecret: registration.signingSecret } : {}) };
  adapter = new AsaasAdapter(context);
});

afterAll(async () => {
  await adapter?.close();
  for (const other of extra) await other.close();
  await emulator?.stop();
  await receiver?.close();
});

describe('Asaas payouts: the shared contract', () => {
  payoutContract(target, carryingSameReference);
});

describe('Asaas payouts: its own', () => {
  it('the balance moves with a paid charge (net of the fee) and its refund', async () => {
    const before = (await adapter.getBalance()).available;
    const charge = await adapter.createCharge({
      paymentId: 'pay_transfer_1', method: 'pix', amount: 10_000, customer: { name: 'Maria Souza', document: '52998224725' },
      expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_transfer_1:acc',
    });
    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, charge.providerPaymentId);
    // R$ 100,00 less Asaas's R$ 1,99 Pix fee.
    expect((await adapter.getBalance()).available).toBe(before + 10_000 - 199);
    await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_transfer_1', amount: 2_000 });
    expect((await adapter.getBalance()).available).toBe(before + 10_000 - 199 - 2_000);
  });

  it('reports TRANSFER_CREATED and TRANSFER_DONE, both read back to our payout id; the charge parser only acknowledges them', async () => {
    await control.behaviour('paid', 30);
    await control.credit(5_000);
    const payoutId = newId('payout');
    const made = await adapter.createTransfer({ payoutId, amount: 1_500, destination: target().destination });
    expect(made).toMatchObject({ status: 'processing', providerStatus: 'BANK_PROCESSING', fee: 0 });
    const done = await until(async () => {
      const t = await adapter.getTransfer({ payoutId, providerTransferId: made.providerTransferId });
      return t.status === 'paid' ? t : undefined;
    });
    expect(done.endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    await emulator.webhooksIdle();
    const mine = receiver.received.filter((r) => r.rawBody.includes(made.providerTransferId));
    expect(mine.map((r) => (JSON.parse(r.rawBody.toString()) as { event: string }).event).sort()).toEqual(['TRANSFER_CREATED', 'TRANSFER_DONE']);
    for (const delivery of mine) {
      expect(adapter.parseTransferWebhook(delivery)).toEqual({ ok: true, eventKey: expect.stringMatching(/^asaas:evt_/), transfers: [{ providerTransferId: made.providerTransferId, payoutId }] });
      expect(adapter.parseWebhook(delivery)).toMatchObject({ ok: true, providerPaymentIds: [] });
    }
    expect(adapter.parseTransferWebhook({ ...mine[0]!, headers: { ...mine[0]!.headers, 'asaas-access-token': 'forged-token-000000000000000000000000' } })).toEqual({
      ok: false,
      reason: 'unauthenticated',
      httpStatus: 401,
    });
  });

  it('a repeat after a lost answer finds the transfer by our payout id and makes no second one', async () => {
    await control.behaviour('hang');
    await control.credit(2_000);
    await control.withholdAnswer();
    const payoutId = newId('payout');
    const error = await adapter.createTransfer({ payoutId, amount: 2_000, destination: target().destination }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'ambiguous' });
    const again = await adapter.createTransfer({ payoutId, amount: 2_000, destination: target().destination });
    expect(again).toMatchObject({ payoutId, amount: 2_000 });
    expect(carryingSameReference(await control.transfers(), again.providerTransferId)).toBe(1);
  });

  it('a failed transfer carries Asaas reason', async () => {
    await control.behaviour('failed', 30);
    await control.credit(1_000);
    const payoutId = newId('payout');
    await adapter.createTransfer({ payoutId, amount: 1_000, destination: target().destination });
    const failed = await until(async () => {
      const t = await adapter.getTransfer({ payoutId });
      return t.status === 'failed' ? t : undefined;
    });
    expect(failed).toMatchObject({ providerStatus: 'FAILED', failureCode: 'transfer_failed', failureReason: expect.stringMatching(/^Asaas: /) });
  });

  it('pays to a Pix key only, refusing another destination before calling Asaas', async () => {
    const error = await adapter.createTransfer({ payoutId: newId('payout'), amount: 100, destination: { type: 'account' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'destination' } });
    expect(AsaasAdapter.payoutDestinations).toEqual(['pix_key']);
  });
});

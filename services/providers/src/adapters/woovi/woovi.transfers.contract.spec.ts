/**
 * Contract test for balance and Pix payments out: the real WooviAdapter over real HTTP against the
 * Woovi emulator (in-process, free ports), its RSA-signed OPENPIX:MOVEMENT_* webhooks recorded.
 */
import { createWooviEmulator, type WooviEmulator } from '@orquestra/emulators';
import { ProviderError } from '../provider-adapter';
import type { CreateTransferInput } from '../provider-payouts';
import { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';
import { payAtEmulator, until } from '../testing/contract-kit';

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX3RyYW5zZmVyczpzZWNyZXQ';
const WEBHOOK_SECRET = 'whsec_transfers_w3';

let emulator: WooviEmulator;
let contract: WooviContract;
let adapter: WooviAdapter;
let ports: { apiPort: number; controlPort: number };
let counter = 0;

const control = async (path: string, body: unknown, method = 'POST') => {
  const response = await fetch(`${contract.controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBeLessThan(300);
};
const credit = (cents: number) => control('/__control/balance', { account: APP_ID, credit_cents: cents });
const behave = (behaviour: Record<string, unknown>) => control('/__control/payments/behaviour', { account: APP_ID, ...behaviour });

function transferInput(amount: number, overrides: Partial<CreateTransferInput> = {}): CreateTransferInput {
  counter += 1;
  return { payoutId: `po_woovi_${counter}`, amount, destination: { type: 'pix_key', keyType: 'cpf', key: '52998224725' }, description: 'Repasse semanal', ...overrides };
}

const paymentsCarrying = (payoutId: string) => emulator.state.payments.list(emulator.state.authenticate(APP_ID) ?? '').filter((p) => p.correlationID === payoutId);

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 }, paymentSettleMs: 100 });
  const started = { start: async () => (ports = await emulator.start()), stop: () => emulator.stop() };
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: WEBHOOK_SECRET, account: 'acc_t', emulator: started });
  adapter = contract.adapter;
});

afterEach(() => control('/__control/payments/behaviour', { account: APP_ID }, 'DELETE'));

afterAll(async () => {
  await contract?.stop();
});

describe('balance and Pix payments out', () => {
  it('reads the balance, which moves with a paid charge and a control credit', async () => {
    const before = await adapter.getBalance();
    const charge = await adapter.createCharge({
      paymentId: 'pay_transfer_1', method: 'pix', amount: 10_000, customer: { name: 'Maria Souza' }, expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_transfer_1:acc',
    });
    await payAtEmulator('woovi', contract.controlUrl, { app_id: APP_ID }, charge.providerPaymentId);
    await credit(50_000);
    // R$ 100,00 less the emulator's 0.8% fee, plus R$ 500,00.
    expect(await adapter.getBalance()).toMatchObject({ available: before.available + 10_000 - 80 + 50_000, pending: 0, currency: 'BRL' });
  });

  it('creates and approves a payment to a Pix key: processing, then paid, the signed webhook read back, balance debited', async () => {
    await credit(20_000);
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(7_500);
    const created = await adapter.createTransfer(input);
    expect(created).toMatchObject({ providerTransferId: input.payoutId, payoutId: input.payoutId, amount: 7_500, status: 'processing', providerStatus: 'APPROVED' });
    expect((await adapter.getBalance()).available).toBe(balance - 7_500);
    const paid = await until(async () => {
      const now = await adapter.getTransfer({ payoutId: input.payoutId });
      return now.status === 'paid' ? now : undefined;
    });
    expect(paid).toMatchObject({ providerStatus: 'CONFIRMED', endToEndId: expect.stringMatching(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/) });
    expect(paid.paidAt).toBeInstanceOf(Date);

    await emulator.webhooksIdle();
    const hook = contract.receiver.received.find((r) => r.rawBody.includes('OPENPIX:MOVEMENT_CONFIRMED') && r.rawBody.includes(input.payoutId));
    expect(hook).toBeDefined();
    expect(adapter.parseTransferWebhook(hook!)).toEqual({ ok: true, eventKey: expect.stringMatching(/^woovi:OPENPIX:MOVEMENT_CONFIRMED:/), transfers: [{ providerTransferId: input.payoutId, payoutId: input.payoutId }] });
    // The charge parser acknowledges the same delivery without naming a charge.
    expect(adapter.parseWebhook(hook!)).toMatchObject({ ok: true, providerPaymentIds: [] });
    expect(adapter.parseTransferWebhook({ ...hook!, query: { hmac: 'not-our-secret' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });

  it('repeating a create with the same payout id answers the same payment, sent once', async () => {
    await credit(5_000);
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(1_000);
    const first = await adapter.createTransfer(input);
    const second = await adapter.createTransfer(input);
    expect(second.providerTransferId).toBe(first.providerTransferId);
    expect(paymentsCarrying(input.payoutId)).toHaveLength(1);
    expect((await adapter.getBalance()).available).toBe(balance - 1_000);
  });

  it('an approval whose answer is lost is ambiguous; getTransfer by payout id finds the one payment sent', async () => {
    await credit(5_000);
    await behave({ answer: 'lost' });
    const impatient = new WooviAdapter({
      baseUrl: `http://127.0.0.1:${ports.apiPort}`, credentials: { app_id: APP_ID }, webhookUrl: 'http://127.0.0.1:1/unused', webhookSecret: WEBHOOK_SECRET,
      settings: { webhook_public_key: emulator.publicKeyPem }, timeoutMs: 700,
    });
    const input = transferInput(2_000);
    try {
      const error = await impatient.createTransfer(input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe('ambiguous');
    } finally {
      await impatient.close();
    }
    await control('/__control/payments/behaviour', { account: APP_ID }, 'DELETE');
    const found = await adapter.getTransfer({ payoutId: input.payoutId });
    expect(found).toMatchObject({ payoutId: input.payoutId, amount: 2_000 });
    expect(['processing', 'paid']).toContain(found.status);
    expect((await adapter.createTransfer(input)).providerTransferId).toBe(input.payoutId);
    expect(paymentsCarrying(input.payoutId)).toHaveLength(1);
  });

  it('getTransfer of a payout id nothing carries is not_found', async () => {
    await expect(adapter.getTransfer({ payoutId: 'po_woovi_never' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refuses more than the balance as insufficient_balance, sending nothing', async () => {
    const balance = (await adapter.getBalance()).available;
    const error = await adapter.createTransfer(transferInput(balance + 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect({ kind: (error as ProviderError).kind, code: (error as ProviderError).normalizedCode, param: (error as ProviderError).param?.name }).toEqual({
      kind: 'rejected',
      code: 'insufficient_balance',
      param: 'amount',
    });
    expect((await adapter.getBalance()).available).toBe(balance);
  });

  it('a payment the bank refuses is failed with Woovi error, and its money returns', async () => {
    await credit(3_000);
    await behave({ outcome: 'failed', failure_reason: 'Chave Pix não encontrada' });
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(3_000);
    await adapter.createTransfer(input);
    const failed = await until(async () => {
      const now = await adapter.getTransfer({ payoutId: input.payoutId });
      return now.status === 'failed' ? now : undefined;
    });
    expect(failed).toMatchObject({ providerStatus: 'FAILED', failureCode: 'pay_pix_key_error', failureReason: 'Woovi: Chave Pix não encontrada' });
    expect((await adapter.getBalance()).available).toBe(balance);
    await emulator.webhooksIdle();
    const hook = contract.receiver.received.find((r) => r.rawBody.includes('OPENPIX:MOVEMENT_FAILED') && r.rawBody.includes(input.payoutId));
    expect(hook && adapter.parseTransferWebhook(hook)).toMatchObject({ ok: true, transfers: [{ providerTransferId: input.payoutId }] });
  });

  it('a payment held with the bank is processing until the control port settles it', async () => {
    await credit(1_500);
    await behave({ outcome: 'hold' });
    const input = transferInput(1_500);
    expect((await adapter.createTransfer(input)).status).toBe('processing');
    await control(`/__control/payments/${input.payoutId}/settle`, { status: 'paid' });
    expect(await adapter.getTransfer({ payoutId: input.payoutId })).toMatchObject({ status: 'paid', providerStatus: 'CONFIRMED' });
  });

  it('refuses a destination other than a Pix key before calling Woovi', async () => {
    await expect(adapter.createTransfer(transferInput(100, { destination: { type: 'account' } }))).rejects.toMatchObject({ kind: 'rejected', param: { name: 'destination' } });
    expect(WooviAdapter.payoutDestinations).toEqual(['pix_key']);
  });
});

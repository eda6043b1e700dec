/**
 * Contract test for balance and withdrawals: the real PagarmeAdapter over real HTTP against the
 * Pagar.me emulator (in-process, free ports).
 */
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext } from '../provider-adapter';
import type { CreateTransferInput } from '../provider-payouts';
import { PagarmeAdapter } from './pagarme.adapter';
import { payAtEmulator, until } from '../testing/contract-kit';

jest.setTimeout(30_000);

const KEY = 'sk_test_withdrawalContract01';

let emulator: PagarmeEmulator;
let controlUrl: string;
let context: AdapterContext;
let adapter: PagarmeAdapter;
const extra: PagarmeAdapter[] = [];
let counter = 0;

const control = async (path: string, body: unknown, method = 'POST') => {
  const response = await fetch(`${controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBeLessThan(300);
  return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
};
const credit = (cents: number) => control('/__control/balance', { account: KEY, credit_cents: cents });
const behave = (behaviour: Record<string, unknown>) => control('/__control/withdrawals/behaviour', { account: KEY, ...behaviour });

function transferInput(amount: number, overrides: Partial<CreateTransferInput> = {}): CreateTransferInput {
  counter += 1;
  return { payoutId: `po_pagarme_${counter}`, amount, destination: { type: 'account' }, description: 'Saque semanal', ...overrides };
}

const withdrawalsCarrying = (payoutId: string) => emulator.state.withdrawals.list(emulator.state.authenticate(KEY)?.id ?? '').filter((w) => w.metadata['payout_id'] === payoutId);

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }], withdrawalSettleMs: 100 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  context = { baseUrl: `http://127.0.0.1:${ports.apiPort}/core/v5`, credentials: { secret_key: KEY }, webhookUrl: 'http://127.0.0.1:1/unused', webhookSecret: 'hmac_w', settings: {}, timeoutMs: 5_000 };
  adapter = new PagarmeAdapter(context);
});

afterEach(() => control('/__control/withdrawals/behaviour', { account: KEY }, 'DELETE'));

afterAll(async () => {
  await adapter?.close();
  for (const other of extra) await other.close();
  await emulator?.stop();
});

describe('balance and withdrawals', () => {
  it('reads the default recipient balance, which moves with a paid charge and a control credit', async () => {
    const before = await adapter.getBalance();
    expect(before).toMatchObject({ pending: 0, currency: 'BRL' });
    const charge = await adapter.createCharge({
      paymentId: 'pay_withdraw_1', method: 'pix', amount: 10_000, expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_withdraw_1:acc',
      customer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com', phone: '+55 11 91234-5678' },
    });
    await payAtEmulator('pagarme', controlUrl, { secret_key: KEY }, charge.providerPaymentId);
    await credit(50_000);
    expect((await adapter.getBalance()).available).toBe(before.available + 10_000 + 50_000);
  });

  it('withdraws to the registered account: pending, then paid, balance debited', async () => {
    await credit(20_000);
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(7_500);
    const created = await adapter.createTransfer(input);
    expect(created).toMatchObject({ payoutId: input.payoutId, amount: 7_500, status: 'pending', providerStatus: 'pending_transfer', fee: 0 });
    expect(created.providerTransferId).toMatch(/^tran_/);
    expect((await adapter.getBalance()).available).toBe(balance - 7_500);
    const paid = await until(async () => {
      const now = await adapter.getTransfer({ payoutId: input.payoutId, providerTransferId: created.providerTransferId });
      return now.status === 'paid' ? now : undefined;
    });
    expect(paid).toMatchObject({ providerStatus: 'transferred', payoutId: input.payoutId });
    expect(paid.paidAt).toBeInstanceOf(Date);
  });

  it('repeating a create with the same payout id answers the same withdrawal, made once', async () => {
    await credit(5_000);
    const input = transferInput(1_000);
    const first = await adapter.createTransfer(input);
    const second = await adapter.createTransfer(input);
    expect(second.providerTransferId).toBe(first.providerTransferId);
    expect(withdrawalsCarrying(input.payoutId)).toHaveLength(1);
  });

  it('a create whose answer is lost is ambiguous; getTransfer by payout id finds the one withdrawal made', async () => {
    await credit(5_000);
    await behave({ answer: 'lost' });
    const impatient = new PagarmeAdapter({ ...context, timeoutMs: 700 });
    extra.push(impatient);
    const input = transferInput(2_000);
    const error = await impatient.createTransfer(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('ambiguous');
    await control('/__control/withdrawals/behaviour', { account: KEY }, 'DELETE');

    const found = await adapter.getTransfer({ payoutId: input.payoutId });
    expect(found).toMatchObject({ payoutId: input.payoutId, amount: 2_000 });
    // A repeat of the create replays the first answer (idempotency-key): nothing new.
    expect((await adapter.createTransfer(input)).providerTransferId).toBe(found.providerTransferId);
    expect(withdrawalsCarrying(input.payoutId)).toHaveLength(1);
  });

  it('getTransfer of a payout id nothing carries is not_found', async () => {
    await expect(adapter.getTransfer({ payoutId: 'po_pagarme_never' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refuses more than is available as insufficient_balance, making nothing', async () => {
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(balance + 1);
    const error = await adapter.createTransfer(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect({ kind: (error as ProviderError).kind, code: (error as ProviderError).normalizedCode, param: (error as ProviderError).param?.name }).toEqual({
      kind: 'rejected',
      code: 'insufficient_balance',
      param: 'amount',
    });
    expect(withdrawalsCarrying(input.payoutId)).toHaveLength(0);
  });

  it('a withdrawal the bank refuses is failed with the reason, and its money returns', async () => {
    await credit(3_000);
    await behave({ outcome: 'failed', failure_reason: 'Conta bancária encerrada' });
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(3_000);
    await adapter.createTransfer(input);
    const failed = await until(async () => {
      const now = await adapter.getTransfer({ payoutId: input.payoutId });
      return now.status === 'failed' ? now : undefined;
    });
    expect(failed).toMatchObject({ providerStatus: 'failed', failureCode: 'transfer_failed', failureReason: 'Pagar.me: Conta bancária encerrada' });
    expect((await adapter.getBalance()).available).toBe(balance);
  });

  it('a withdrawal held in processing stays so until the control port settles it', async () => {
    await credit(1_500);
    await behave({ outcome: 'hold' });
    const input = transferInput(1_500);
    const created = await adapter.createTransfer(input);
    await until(async () => ((await adapter.getTransfer({ payoutId: input.payoutId })).status === 'processing' ? true : undefined));
    await control(`/__control/withdrawals/${created.providerTransferId}/settle`, { status: 'paid' });
    expect(await adapter.getTransfer({ payoutId: input.payoutId, providerTransferId: created.providerTransferId })).toMatchObject({ status: 'paid' });
  });

  it('pays out only to the registered account; another recipient than the default is taken from the settings', async () => {
    await expect(adapter.createTransfer(transferInput(100, { destination: { type: 'pix_key', keyType: 'email', key: 'a@b.com' } }))).rejects.toMatchObject({ kind: 'rejected', param: { name: 'destination' } });
    expect(PagarmeAdapter.payoutDestinations).toEqual(['account']);
    const elsewhere = new PagarmeAdapter({ ...context, settings: { recipient_id: 'rp_not_this_account' } });
    extra.push(elsewhere);
    await expect(elsewhere.getBalance()).rejects.toMatchObject({ kind: 'not_found' });
  });
});

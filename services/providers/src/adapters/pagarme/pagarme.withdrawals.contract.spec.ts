/**
 * Contract test for balance and withdrawals: the real PagarmeAdapter over real HTTP against the
 * Pagar.me emulator (the shared payout contract, testing/payout-contract-kit.ts), plus what is
 * Pagar.me's own: the balance a paid charge and a refund move, the repeat after a lost answer
 * replayed by the idempotency key, the registered account as the only destination, and a
 * configured recipient instead of the default one.
 */
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import { ProviderError, type AdapterContext } from '../provider-adapter';
import { PagarmeAdapter } from './pagarme.adapter';
import { payAtEmulator, until } from '../testing/contract-kit';
import { payoutContract, payoutControl, type PayoutContractTarget } from '../testing/payout-contract-kit';

jest.setTimeout(30_000);

const KEY = 'sk_test_withdrawalContract01';

let emulator: PagarmeEmulator;
let controlUrl: string;
let context: AdapterContext;
let adapter: PagarmeAdapter;
const extra: PagarmeAdapter[] = [];

const target = (): PayoutContractTarget => ({
  adapter,
  control: { url: controlUrl, param: 'account', account: KEY },
  destination: { type: 'account' },
  received: [],
});
const control = payoutControl(target);
const madeUnder = (transfers: unknown[], providerTransferId: string) => {
  const views = transfers as { id: string; metadata: Record<string, string> }[];
  const payoutId = views.find((w) => w.id === providerTransferId)?.metadata['payout_id'];
  return payoutId ? views.filter((w) => w.metadata['payout_id'] === payoutId).length : 0;
};

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  context = { baseUrl: `http://127.0.0.1:${ports.apiPort}/core/v5`, credentials: { secret_key: KEY }, webhookUrl: 'http://127.0.0.1:1/unused', webhookSecret: 'hmac_w', settings: {}, timeoutMs: 1_000 };
  adapter = new PagarmeAdapter(context);
});

afterAll(async () => {
  await adapter?.close();
  for (const other of extra) await other.close();
  await emulator?.stop();
});

describe('Pagar.me payouts: the shared contract', () => {
  payoutContract(target, madeUnder);
});

describe('Pagar.me payouts: its own', () => {
  it('the default recipient balance moves with a paid charge and its refund', async () => {
    const before = await adapter.getBalance();
    expect(before).toMatchObject({ pending: 0, currency: 'BRL' });
    const charge = await adapter.createCharge({
      paymentId: 'pay_withdraw_1', method: 'pix', amount: 10_000, expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_withdraw_1:acc',
      customer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com', phone: '+55 11 91234-5678' },
    });
    await payAtEmulator('pagarme', controlUrl, { secret_key: KEY }, charge.providerPaymentId);
    expect((await adapter.getBalance()).available).toBe(before.available + 10_000);
    await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_withdraw_1', amount: 2_500 });
    expect((await adapter.getBalance()).available).toBe(before.available + 10_000 - 2_500);
  });

  it('withdraws to the registered account: processing, then transferred with its funding date', async () => {
    await control.behaviour('paid', 30);
    await control.credit(5_000);
    const payoutId = newId('payout');
    const made = await adapter.createTransfer({ payoutId, amount: 5_000, destination: { type: 'account' } });
    expect(made).toMatchObject({ payoutId, status: 'processing', providerStatus: 'processing', fee: 0 });
    expect(made.providerTransferId).toMatch(/^tran_/);
    const paid = await until(async () => {
      const t = await adapter.getTransfer({ payoutId, providerTransferId: made.providerTransferId });
      return t.status === 'paid' ? t : undefined;
    });
    expect(paid).toMatchObject({ providerStatus: 'transferred' });
    expect(paid.paidAt).toBeInstanceOf(Date);
  });

  it('a repeat after a lost answer is replayed by the idempotency key: the same withdrawal, made once', async () => {
    await control.behaviour('hang');
    await control.credit(2_000);
    await control.withholdAnswer();
    const payoutId = newId('payout');
    await expect(adapter.createTransfer({ payoutId, amount: 2_000, destination: { type: 'account' } })).rejects.toMatchObject({ kind: 'ambiguous' });
    const again = await adapter.createTransfer({ payoutId, amount: 2_000, destination: { type: 'account' } });
    expect(again).toMatchObject({ payoutId, amount: 2_000 });
    expect(madeUnder(await control.transfers(), again.providerTransferId)).toBe(1);
  });

  it('a failed withdrawal carries Pagar.me reason', async () => {
    await control.behaviour('failed', 30);
    await control.credit(1_000);
    const payoutId = newId('payout');
    await adapter.createTransfer({ payoutId, amount: 1_000, destination: { type: 'account' } });
    const failed = await until(async () => {
      const t = await adapter.getTransfer({ payoutId });
      return t.status === 'failed' ? t : undefined;
    });
    expect(failed).toMatchObject({ providerStatus: 'failed', failureCode: 'transfer_failed', failureReason: expect.stringMatching(/^Pagar\.me: /) });
  });

  it('pays out only to the registered account; a configured recipient replaces the default one', async () => {
    const error = await adapter.createTransfer({ payoutId: newId('payout'), amount: 100, destination: { type: 'pix_key', keyType: 'email', key: 'a@b.com' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'destination' } });
    expect(PagarmeAdapter.payoutDestinations).toEqual(['account']);
    const elsewhere = new PagarmeAdapter({ ...context, settings: { recipient_id: 'rp_not_this_account' } });
    extra.push(elsewhere);
    await expect(elsewhere.getBalance()).rejects.toMatchObject({ kind: 'not_found' });
  });
});

/**
 * Contract test for splits and subaccount withdrawals: the real WooviAdapter over real HTTP against
 * the Woovi emulator. A split charge carries `splits[{value, pixKey, SPLIT_SUB_ACCOUNT}]`; paid,
 * each part lands in its subaccount's balance and only the rest, net of the fee, in the account's;
 * a refund comes from the account. A withdrawal takes the whole balance (`wholeBalance`), whatever
 * amount was asked; a repeat of the payout finds nothing left and withdraws nothing.
 */
import { createWooviEmulator, type WooviEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import type { CreateChargeInput } from '../provider-adapter';
import type { ProviderSubaccount } from '../provider-subaccounts';
import { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';
import { payAtEmulator } from '../testing/contract-kit';

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX3NwbGl0czpzZWNyZXQ';
/** The emulator's fee: 100 basis points (1%). */
const FEE_BPS = 100;

let emulator: WooviEmulator;
let contract: WooviContract;
let adapter: WooviAdapter;

const subaccount = (name: string) => adapter.createSubaccount({ subaccountId: newId('subaccount'), type: 'individual', name, document: '52998224725', pixKey: { keyType: 'email', key: `${newId('subaccount').toLowerCase()}@exemplo.com` } });

const charge = (amount: number, splits: CreateChargeInput['splits']): CreateChargeInput => {
  const paymentId = newId('payment');
  return { paymentId, method: 'pix', amount, customer: { name: 'Maria Souza', document: '52998224725' }, expiresInSeconds: 3_600, metadata: {}, idempotencyKey: `${paymentId}:acc`, splits };
};

const balanceOf = async (sub: ProviderSubaccount) => (await adapter.getSubaccountBalance(sub.providerSubaccountId)).available;
const withdrawals = async (sub: ProviderSubaccount) =>
  ((await (await fetch(`${contract.controlUrl}/__control/subaccounts/${encodeURIComponent(sub.providerSubaccountId)}/withdrawals?account=${APP_ID}`)).json()) as { withdrawals: { value: number; destinationAlias: string }[] }).withdrawals;
const source = (sub: ProviderSubaccount) => ({ providerSubaccountId: sub.providerSubaccountId, pixKey: { keyType: 'email' as const, key: sub.providerSubaccountId } });

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 }, feeBasisPoints: FEE_BPS, refundSettleMs: 20 });
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: 'whsec_splits_w1', account: 'acc_sp', emulator });
  adapter = contract.adapter;
});

afterAll(async () => {
  await contract?.stop();
});

describe('Woovi splits', () => {
  it('declares the spec maximum of parts', () => {
    expect(WooviAdapter.maxSplits).toBe(20);
  });

  it('a paid split charge credits each subaccount its exact part and the account only the rest, net of the fee; a refund comes from the account', async () => {
    const ana = await subaccount('Ana');
    const bia = await subaccount('Bia');
    const mainBefore = (await adapter.getBalance()).available;
    const made = await adapter.createCharge(charge(10_001, [
      { subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 3_333 },
      { subaccountId: 'sub_bia', splitTarget: bia.splitTarget, amount: 1 },
    ]));
    const atWoovi = (await (await fetch(`${contract.apiUrl}/api/v1/charge/${encodeURIComponent(made.providerPaymentId)}`, { headers: { authorization: APP_ID } })).json()) as { charge: { splits: unknown[]; fee: number } };
    expect(atWoovi.charge.splits).toEqual([
      { value: 3_333, pixKey: ana.splitTarget, splitType: 'SPLIT_SUB_ACCOUNT' },
      { value: 1, pixKey: bia.splitTarget, splitType: 'SPLIT_SUB_ACCOUNT' },
    ]);
    await payAtEmulator('woovi', contract.controlUrl, { app_id: APP_ID }, made.providerPaymentId);
    expect(await balanceOf(ana)).toBe(3_333);
    expect(await balanceOf(bia)).toBe(1);
    // 1% of R$ 100,01, rounded half up: 100 cents.
    expect(atWoovi.charge.fee).toBe(100);
    expect((await adapter.getBalance()).available).toBe(mainBefore + 10_001 - 100 - 3_334);
    await adapter.refundCharge({ providerPaymentId: made.providerPaymentId, refundId: newId('refund'), amount: 5_000 });
    expect(await balanceOf(ana)).toBe(3_333);
    expect((await adapter.getBalance()).available).toBe(mainBefore + 10_001 - 100 - 3_334 - 5_000);
  });

  it('a repeat of the same key with another split is refused, not answered as the first charge', async () => {
    const ana = await subaccount('Ana');
    const input = charge(5_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 1_000 }]);
    const first = await adapter.createCharge(input);
    await expect(adapter.createCharge(input)).resolves.toMatchObject({ providerPaymentId: first.providerPaymentId });
    await expect(adapter.createCharge({ ...input, splits: [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 999 }] })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('refuses a split to a Pix key that is no subaccount, and parts above the charge', async () => {
    await expect(adapter.createCharge(charge(5_000, [{ subaccountId: 'sub_x', splitTarget: 'ninguem@exemplo.com', amount: 1_000 }]))).rejects.toMatchObject({
      kind: 'rejected',
      normalizedCode: 'provider_rejected',
      message: expect.stringContaining('Subconta não encontrada'),
      param: { name: 'splits' },
    });
    const ana = await subaccount('Ana');
    await expect(adapter.createCharge(charge(5_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 5_000 }]))).rejects.toMatchObject({ kind: 'rejected' });
  });
});

describe('Woovi subaccount withdrawals', () => {
  it('withdraws the whole balance whatever amount was asked; a repeat of the payout withdraws nothing more', async () => {
    const ana = await subaccount('Ana');
    const made = await adapter.createCharge(charge(8_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 2_500 }]));
    await payAtEmulator('woovi', contract.controlUrl, { app_id: APP_ID }, made.providerPaymentId);
    const mainBefore = (await adapter.getBalance()).available;
    const payoutId = newId('payout');
    const withdrawal = await adapter.withdrawFromSubaccount({ ...source(ana), payoutId, amount: 1_000 });
    expect(withdrawal).toEqual({
      providerTransferId: expect.any(String),
      payoutId,
      status: 'paid',
      providerStatus: 'CREATED',
      amount: 2_500,
      wholeBalance: true,
      paidAt: expect.any(Date),
    });
    expect(await balanceOf(ana)).toBe(0);
    expect((await adapter.getBalance()).available).toBe(mainBefore);
    await expect(adapter.withdrawFromSubaccount({ ...source(ana), payoutId, amount: 1_000 })).rejects.toMatchObject({ kind: 'rejected', normalizedCode: 'insufficient_balance' });
    expect(await withdrawals(ana)).toEqual([expect.objectContaining({ value: 2_500, destinationAlias: ana.providerSubaccountId })]);
  });

  it('a zero balance is insufficient_balance, asked of Woovi never', async () => {
    const bia = await subaccount('Bia');
    await expect(adapter.withdrawFromSubaccount({ ...source(bia), payoutId: newId('payout'), amount: 100 })).rejects.toMatchObject({ kind: 'rejected', normalizedCode: 'insufficient_balance', param: { name: 'amount' } });
    expect(await withdrawals(bia)).toEqual([]);
  });

  it('cannot read a withdrawal back (Woovi has no such read): refused, never not_found', async () => {
    const ana = await subaccount('Ana');
    await expect(adapter.getSubaccountWithdrawal({ ...source(ana), payoutId: newId('payout') })).rejects.toMatchObject({ kind: 'rejected', param: { publicMessage: expect.stringContaining('não permite consultar') } });
  });
});

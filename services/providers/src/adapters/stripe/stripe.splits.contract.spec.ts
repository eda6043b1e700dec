/**
 * Contract test for splits and subaccount withdrawals at Stripe: the real StripeAdapter over real
 * HTTP against the Stripe emulator. A split is a destination charge (`transfer_data[destination]`,
 * `transfer_data[amount]`): paid, the connected account's balance grows by exactly its part and the
 * platform's by the rest minus Stripe's fee; a refund reverses the transfer in proportion; the
 * connected account pays out its own balance (`Stripe-Account`), once per payout id.
 */
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import type { AdapterContext, CreateChargeInput } from '../provider-adapter';
import { payAtEmulator, until } from '../testing/contract-kit';
import { setSubaccountStatus } from '../testing/subaccount-contract-kit';
import { StripeAdapter } from './stripe.adapter';

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51SplitContract000000000';

let emulator: StripeEmulator;
let adapter: StripeAdapter;
let apiUrl: string;
let controlUrl: string;

const pix = (amount: number, splits?: CreateChargeInput['splits']): CreateChargeInput => {
  const paymentId = newId('payment');
  return { paymentId, method: 'pix', amount, customer: { name: 'Ana' }, expiresInSeconds: 3_600, metadata: {}, idempotencyKey: `${paymentId}:pa`, ...(splits ? { splits } : {}) };
};

/** A connected account Stripe has verified (transfers and payouts enabled). */
async function activeAccount(): Promise<{ subaccountId: string; account: string }> {
  const subaccountId = newId('subaccount');
  const made = await adapter.createSubaccount({ subaccountId, type: 'individual', name: 'Ana Lima', document: '52998224725', email: `${subaccountId.toLowerCase()}@exemplo.com` });
  await setSubaccountStatus(controlUrl, made.providerSubaccountId, 'active');
  return { subaccountId, account: made.splitTarget };
}

async function paidSplit(amount: number, subaccount: { subaccountId: string; account: string }, part: number) {
  const charge = await adapter.createCharge(pix(amount, [{ subaccountId: subaccount.subaccountId, splitTarget: subaccount.account, amount: part }]));
  await payAtEmulator('stripe', controlUrl, {}, charge.providerPaymentId);
  return adapter.getCharge(charge.providerPaymentId);
}

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY], refundSettleMs: 50 });
  const ports = await emulator.start();
  apiUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  const context: AdapterContext = { baseUrl: apiUrl, credentials: { secret_key: SECRET_KEY }, webhookUrl: 'http://127.0.0.1:1/unused', webhookSecret: 'x', settings: {}, timeoutMs: 5_000 };
  adapter = new StripeAdapter(context);
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
});

describe('Stripe splits (destination charges)', () => {
  it('paid, the connected account gets exactly its part and the platform the rest minus the fee', async () => {
    const seller = await activeAccount();
    const platform = (await adapter.getBalance()).available;
    const paid = await paidSplit(10_000, seller, 3_000);
    expect(paid.status).toBe('paid');
    expect((await adapter.getSubaccountBalance(seller.account)).available).toBe(3_000);
    expect((await adapter.getBalance()).available).toBe(platform + 10_000 - 3_000 - (paid.providerFee ?? 0));
    const intent = (await (await fetch(`${apiUrl}/v1/payment_intents/${paid.providerPaymentId}`, { headers: { authorization: `Bearer ${SECRET_KEY}` } })).json()) as { transfer_data: unknown };
    expect(intent.transfer_data).toEqual({ destination: seller.account, amount: 3_000 });
  });

  it('a refund reverses the transfer in proportion (reverse_transfer), the platform pays only its share', async () => {
    const seller = await activeAccount();
    const platform = (await adapter.getBalance()).available;
    const paid = await paidSplit(10_000, seller, 2_500);
    const fee = paid.providerFee ?? 0;
    await adapter.refundCharge({ providerPaymentId: paid.providerPaymentId, refundId: newId('refund'), amount: 4_000 });
    expect((await adapter.getSubaccountBalance(seller.account)).available).toBe(2_500 - 1_000);
    expect((await adapter.getBalance()).available).toBe(platform + 7_500 - fee - 3_000);
    await adapter.refundCharge({ providerPaymentId: paid.providerPaymentId, refundId: newId('refund'), amount: 6_000 });
    expect((await adapter.getSubaccountBalance(seller.account)).available).toBe(0);
    expect((await adapter.getBalance()).available).toBe(platform - fee);
  });

  it('a refund of a charge without split reverses nothing', async () => {
    const charge = await adapter.createCharge(pix(2_000));
    await payAtEmulator('stripe', controlUrl, {}, charge.providerPaymentId);
    const refund = await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: newId('refund'), amount: 500 });
    expect(refund.amount).toBe(500);
  });

  it('an unknown connected account is refused by Stripe, and so is one whose transfers are not active', async () => {
    await expect(adapter.createCharge(pix(5_000, [{ subaccountId: 'sub_x', splitTarget: 'acct_1NoSuchAccount000', amount: 1_000 }]))).rejects.toMatchObject({ kind: 'rejected' });
    const subaccountId = newId('subaccount');
    const pending = await adapter.createSubaccount({ subaccountId, type: 'individual', name: 'Bia', document: '52998224725', email: 'bia@exemplo.com' });
    const error = await adapter.createCharge(pix(5_000, [{ subaccountId, splitTarget: pending.splitTarget, amount: 1_000 }])).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain('insufficient_capabilities_for_transfer');
  });
});

describe('Stripe subaccount withdrawals (connected account payouts)', () => {
  it('pays out from the connected account balance, once per payout id', async () => {
    const seller = await activeAccount();
    await paidSplit(9_000, seller, 4_000);
    const platform = (await adapter.getBalance()).available;
    const payoutId = newId('payout');
    const made = await adapter.withdrawFromSubaccount({ providerSubaccountId: seller.account, payoutId, amount: 1_500 });
    expect(made).toMatchObject({ payoutId, amount: 1_500 });
    const again = await adapter.withdrawFromSubaccount({ providerSubaccountId: seller.account, payoutId, amount: 1_500 });
    expect(again.providerTransferId).toBe(made.providerTransferId);
    expect((await adapter.getSubaccountBalance(seller.account)).available).toBe(2_500);
    expect((await adapter.getBalance()).available).toBe(platform);
    const paid = await until(async () => {
      const t = await adapter.getSubaccountWithdrawal({ providerSubaccountId: seller.account, payoutId });
      return t.status === 'paid' ? t : undefined;
    });
    expect(paid.providerTransferId).toBe(made.providerTransferId);
    expect(await adapter.getSubaccountWithdrawal({ providerSubaccountId: seller.account, payoutId, providerTransferId: made.providerTransferId })).toMatchObject({ status: 'paid' });
    // The platform's own payouts do not list it.
    await expect(adapter.getTransfer({ payoutId })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('more than the connected account has is insufficient_balance, and nothing leaves', async () => {
    const seller = await activeAccount();
    await paidSplit(3_000, seller, 1_000);
    await expect(adapter.withdrawFromSubaccount({ providerSubaccountId: seller.account, payoutId: newId('payout'), amount: 1_001 })).rejects.toMatchObject({ normalizedCode: 'insufficient_balance' });
    expect((await adapter.getSubaccountBalance(seller.account)).available).toBe(1_000);
  });
});

/**
 * Contract test for splits and subaccount withdrawals: the real PagarmeAdapter over real HTTP
 * against the Pagar.me emulator. A split charge carries one flat rule per subaccount and the main
 * recipient's rule with the rest; paid, each recipient's balance grows by exactly its rule; a
 * refund is taken back in proportion; a subaccount withdraws from its own balance, once per payout id.
 */
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import type { AdapterContext, CreateChargeInput } from '../provider-adapter';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { PagarmeAdapter } from './pagarme.adapter';
import { payAtEmulator, until } from '../testing/contract-kit';
import { randomCpf, setSubaccountStatus } from '../testing/subaccount-contract-kit';

jest.setTimeout(30_000);

const KEY = 'sk_test_splitContract01';

let emulator: PagarmeEmulator;
let controlUrl: string;
let apiUrl: string;
let adapter: PagarmeAdapter;

const seller = (subaccountId: string): CreateSubaccountInput => {
  const document = randomCpf();
  return {
    subaccountId,
    type: 'individual',
    name: 'Ana Lima',
    document,
    email: 'ana@exemplo.com',
    phone: '+55 11 98845-1155',
    birthdate: '1990-05-16',
    occupation: 'Artesã',
    monthlyIncome: 500_000,
    address: { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' },
    bankAccount: { bank: '001', branch: '1234', account: '12345678', accountDigit: '9', type: 'checking', holderName: 'Ana Lima' },
  };
};

const charge = (amount: number, splits: CreateChargeInput['splits']): CreateChargeInput => {
  const paymentId = newId('payment');
  return {
    paymentId,
    method: 'pix',
    amount,
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `${paymentId}:acc`,
    customer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com', phone: '+55 11 91234-5678' },
    ...(splits ? { splits } : {}),
  };
};

/** An active subaccount (KYC approved by the emulator's control route). */
async function activeSubaccount(): Promise<{ subaccountId: string; recipientId: string }> {
  const subaccountId = newId('subaccount');
  const made = await adapter.createSubaccount(seller(subaccountId));
  await setSubaccountStatus(controlUrl, made.providerSubaccountId, 'active');
  return { subaccountId, recipientId: made.splitTarget };
}

const paidCharge = async (amount: number, splits: CreateChargeInput['splits']) => {
  const made = await adapter.createCharge(charge(amount, splits));
  await payAtEmulator('pagarme', controlUrl, { secret_key: KEY }, made.providerPaymentId);
  return made;
};

beforeAll(async () => {
  emulator = createPagarmeEmulator({ accounts: [{ secret_key: KEY }] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  apiUrl = `http://127.0.0.1:${ports.apiPort}/core/v5`;
  const context: AdapterContext = { baseUrl: apiUrl, credentials: { secret_key: KEY }, webhookUrl: 'http://127.0.0.1:1/unused', webhookSecret: 'hmac_s', settings: {}, timeoutMs: 2_000 };
  adapter = new PagarmeAdapter(context);
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
});

describe('Pagar.me splits', () => {
  it('sends one rule per part plus the main recipient with the rest; paid, each balance grows by its part', async () => {
    const a = await activeSubaccount();
    const b = await activeSubaccount();
    const main = (await adapter.getBalance()).available;
    const made = await paidCharge(10_000, [
      { subaccountId: a.subaccountId, splitTarget: a.recipientId, amount: 3_000 },
      { subaccountId: b.subaccountId, splitTarget: b.recipientId, amount: 1_234 },
    ]);
    expect((await adapter.getSubaccountBalance(a.recipientId)).available).toBe(3_000);
    expect((await adapter.getSubaccountBalance(b.recipientId)).available).toBe(1_234);
    expect((await adapter.getBalance()).available).toBe(main + 10_000 - 3_000 - 1_234);
    // The rules as Pagar.me keeps them on the charge: the main recipient liable and paying the fees.
    const read = (await (await fetch(`${apiUrl}/charges/${made.providerPaymentId}`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` } })).json()) as {
      last_transaction: { split: Array<{ amount: number; recipient: { id: string }; options: { liable: boolean; charge_processing_fee: boolean; charge_remainder_fee: boolean } }> };
    };
    const rules = read.last_transaction.split;
    expect(rules.map((r) => r.amount)).toEqual([3_000, 1_234, 5_766]);
    expect(rules[0]?.options).toEqual({ liable: false, charge_processing_fee: false, charge_remainder_fee: false });
    expect(rules[2]?.options).toEqual({ liable: true, charge_processing_fee: true, charge_remainder_fee: true });
  });

  it('a refund is taken back from each recipient in proportion to its rule', async () => {
    const a = await activeSubaccount();
    const main = (await adapter.getBalance()).available;
    const made = await paidCharge(10_000, [{ subaccountId: a.subaccountId, splitTarget: a.recipientId, amount: 2_500 }]);
    await adapter.refundCharge({ providerPaymentId: made.providerPaymentId, refundId: newId('refund'), amount: 4_000 });
    expect((await adapter.getSubaccountBalance(a.recipientId)).available).toBe(2_500 - 1_000);
    expect((await adapter.getBalance()).available).toBe(main + 7_500 - 3_000);
    await adapter.refundCharge({ providerPaymentId: made.providerPaymentId, refundId: newId('refund'), amount: 6_000 });
    expect((await adapter.getSubaccountBalance(a.recipientId)).available).toBe(0);
    expect((await adapter.getBalance()).available).toBe(main);
  });

  it('an unknown recipient is refused by Pagar.me, and nothing is created', async () => {
    const error = await adapter.createCharge(charge(5_000, [{ subaccountId: 'sub_x', splitTarget: 'rp_doesNotExist0001', amount: 1_000 }])).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', normalizedCode: 'provider_rejected' });
    expect(String((error as Error).message)).toContain('recipient_id: Recipient not found.');
  });

  it('parts that leave nothing to the main account are refused before any call', async () => {
    const a = await activeSubaccount();
    await expect(adapter.createCharge(charge(5_000, [{ subaccountId: a.subaccountId, splitTarget: a.recipientId, amount: 5_000 }]))).rejects.toMatchObject({ kind: 'rejected', normalizedCode: 'provider_rejected' });
    expect(PagarmeAdapter.maxSplits).toBe(20);
  });
});

describe('Pagar.me subaccount withdrawals', () => {
  it('withdraws from the subaccount balance, once per payout id, to its own bank account', async () => {
    const a = await activeSubaccount();
    await paidCharge(8_000, [{ subaccountId: a.subaccountId, splitTarget: a.recipientId, amount: 5_000 }]);
    const main = (await adapter.getBalance()).available;
    const payoutId = newId('payout');
    const made = await adapter.withdrawFromSubaccount({ providerSubaccountId: a.recipientId, payoutId, amount: 2_000 });
    expect(made).toMatchObject({ payoutId, amount: 2_000, status: 'processing' });
    const again = await adapter.withdrawFromSubaccount({ providerSubaccountId: a.recipientId, payoutId, amount: 2_000 });
    expect(again.providerTransferId).toBe(made.providerTransferId);
    expect((await adapter.getSubaccountBalance(a.recipientId)).available).toBe(3_000);
    expect((await adapter.getBalance()).available).toBe(main);
    const paid = await until(async () => {
      const t = await adapter.getSubaccountWithdrawal({ providerSubaccountId: a.recipientId, payoutId });
      return t.status === 'paid' ? t : undefined;
    });
    expect(paid).toMatchObject({ providerTransferId: made.providerTransferId, providerStatus: 'transferred' });
    expect(await adapter.getSubaccountWithdrawal({ providerSubaccountId: a.recipientId, payoutId, providerTransferId: made.providerTransferId })).toMatchObject({ status: 'paid' });
  });

  it('more than the subaccount has is insufficient_balance, and nothing leaves', async () => {
    const a = await activeSubaccount();
    await paidCharge(4_000, [{ subaccountId: a.subaccountId, splitTarget: a.recipientId, amount: 1_000 }]);
    await expect(adapter.withdrawFromSubaccount({ providerSubaccountId: a.recipientId, payoutId: newId('payout'), amount: 1_001 })).rejects.toMatchObject({ normalizedCode: 'insufficient_balance' });
    expect((await adapter.getSubaccountBalance(a.recipientId)).available).toBe(1_000);
  });
});

/**
 * Contract test for splits and subaccount withdrawals: the real AsaasAdapter over real HTTP against
 * the Asaas emulator. A split charge carries `split[{walletId, fixedValue}]`; paid, each part lands
 * in its subaccount's own balance (read with its apiKey) and only the rest, net of the fee, in the
 * account's; a refund takes the parts back. A withdrawal is a transfer made with the subaccount's
 * apiKey to the Pix key saved at its creation, found again by our payout id.
 */
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import type { AdapterContext, CreateChargeInput } from '../provider-adapter';
import type { CreateSubaccountInput, ProviderSubaccount, SubaccountWithdrawalSource } from '../provider-subaccounts';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator } from '../testing/contract-kit';
import { randomCpf } from '../testing/subaccount-contract-kit';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnNwbGl0cy1h';
/** The emulator's Pix fee (its default), in cents. */
const PIX_FEE = 199;
const PIX_KEY = { keyType: 'email' as const, key: 'saques@loja-lima.com.br' };

let emulator: AsaasEmulator;
let controlUrl: string;
let apiUrl: string;
let adapter: AsaasAdapter;

const person = (subaccountId: string): CreateSubaccountInput => ({
  subaccountId,
  type: 'individual',
  name: 'Ana Lima',
  document: randomCpf(),
  email: `ana.${subaccountId}@exemplo.com`,
  phone: '11988451155',
  birthdate: '1990-05-16',
  monthlyIncome: 500_000,
  address: { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' },
  pixKey: PIX_KEY,
});

const charge = (amount: number, splits: CreateChargeInput['splits']): CreateChargeInput => {
  const paymentId = newId('payment');
  return { paymentId, method: 'pix', amount, customer: { name: 'Maria Souza', document: '52998224725' }, expiresInSeconds: 3_600, metadata: {}, idempotencyKey: `${paymentId}:acc`, splits };
};

async function asaas<T>(path: string, apiKey = API_KEY): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, { headers: { access_token: apiKey, 'user-agent': 'contract-test' } });
  return (await response.json()) as T;
}

async function asaasText(path: string): Promise<string> {
  return (await fetch(`${apiUrl}${path}`, { headers: { access_token: API_KEY, 'user-agent': 'contract-test' } })).text();
}

/** Money into the account's own balance (Asaas keeps its fees on a refund: the account pays them back). */
async function creditAccount(amount: number): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/balance/credit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: API_KEY, amount }) });
  if (!response.ok) throw new Error(`credit: HTTP ${response.status}`);
}

const balanceOf = async (sub: ProviderSubaccount) => (await adapter.getSubaccountBalance(sub.providerSubaccountId, sub.issuedSecret)).available;
const source = (sub: ProviderSubaccount, withPixKey = true): SubaccountWithdrawalSource => ({
  providerSubaccountId: sub.providerSubaccountId,
  ...(sub.issuedSecret ? { issuedSecret: sub.issuedSecret } : {}),
  ...(withPixKey ? { pixKey: PIX_KEY } : {}),
});

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 50 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  apiUrl = `http://127.0.0.1:${ports.apiPort}/v3`;
  const context: AdapterContext = { baseUrl: apiUrl, credentials: { api_key: API_KEY }, webhookUrl: 'http://127.0.0.1:9/hook', webhookSecret: 's', settings: {}, timeoutMs: 2_000 };
  adapter = new AsaasAdapter(context);
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
});

describe('Asaas splits', () => {
  it('declares the spec maximum of parts', () => {
    expect(AsaasAdapter.maxSplits).toBe(20);
  });

  it('a paid split charge credits each subaccount its exact part and the account only the rest, net of the fee', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    const bia = await adapter.createSubaccount(person(newId('subaccount')));
    const [anaBefore, biaBefore, mainBefore] = [await balanceOf(ana), await balanceOf(bia), (await adapter.getBalance()).available];
    const made = await adapter.createCharge(charge(10_001, [
      { subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 3_333 },
      { subaccountId: 'sub_bia', splitTarget: bia.splitTarget, amount: 1_001 },
    ]));
    const atAsaas = await asaasText(`/payments/${made.providerPaymentId}`);
    // Reais exactly as Asaas writes them (JSON numbers), read as text: no float in between.
    expect(atAsaas).toMatch(new RegExp(`"walletId":"${ana.splitTarget}","fixedValue":33.33,[^}]*"status":"PENDING"`));
    expect(atAsaas).toMatch(new RegExp(`"walletId":"${bia.splitTarget}","fixedValue":10.01,[^}]*"status":"PENDING"`));
    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, made.providerPaymentId);
    expect(await balanceOf(ana)).toBe(anaBefore + 3_333);
    expect(await balanceOf(bia)).toBe(biaBefore + 1_001);
    expect((await adapter.getBalance()).available).toBe(mainBefore + 10_001 - PIX_FEE - 3_333 - 1_001);
    expect((await adapter.getCharge(made.providerPaymentId)).status).toBe('paid');
  });

  it('a card charge carries the split too; its parts await the release of the card money', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    const before = await balanceOf(ana);
    const made = await adapter.createCharge({ ...charge(6_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 1_500 }]), method: 'card' });
    expect(await asaasText(`/payments/${made.providerPaymentId}`)).toMatch(new RegExp(`"billingType":"CREDIT_CARD".*"walletId":"${ana.splitTarget}","fixedValue":15.00`));
    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, made.providerPaymentId);
    expect(await asaasText(`/payments/${made.providerPaymentId}`)).toContain('"status":"AWAITING_CREDIT"');
    expect(await balanceOf(ana)).toBe(before);
  });

  it('a repeat of the same key with another split is refused, not answered as the first charge', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    const input = charge(5_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 1_000 }]);
    const first = await adapter.createCharge(input);
    await expect(adapter.createCharge(input)).resolves.toMatchObject({ providerPaymentId: first.providerPaymentId });
    await expect(adapter.createCharge({ ...input, splits: [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 1_001 }] })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('refuses a split to a wallet Asaas does not know, and parts above the charge', async () => {
    await expect(adapter.createCharge(charge(5_000, [{ subaccountId: 'sub_x', splitTarget: '00000000-0000-4000-8000-000000000000', amount: 1_000 }]))).rejects.toMatchObject({
      kind: 'rejected',
      normalizedCode: 'provider_rejected',
      message: expect.stringContaining('invalid_split'),
      param: { name: 'splits' },
    });
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    await expect(adapter.createCharge(charge(5_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 5_001 }]))).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('invalid_split'),
    });
  });

  it('a full refund takes every part back from its wallet exactly; a partial one its proportional share', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    const made = await adapter.createCharge(charge(10_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 3_001 }]));
    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, made.providerPaymentId);
    await creditAccount(10_000);
    const anaPaid = await balanceOf(ana);
    const mainPaid = (await adapter.getBalance()).available;
    // A third of the charge: floor(3001 × 3333 / 10000) = 1000 from Ana, the other 2333 from the account.
    await adapter.refundCharge({ providerPaymentId: made.providerPaymentId, refundId: newId('refund'), amount: 3_333 });
    expect(await balanceOf(ana)).toBe(anaPaid - 1_000);
    expect((await adapter.getBalance()).available).toBe(mainPaid - 2_333);
    await adapter.refundCharge({ providerPaymentId: made.providerPaymentId, refundId: newId('refund'), amount: 6_667 });
    expect(await balanceOf(ana)).toBe(anaPaid - 3_001);
    expect((await adapter.getBalance()).available).toBe(mainPaid - (10_000 - 3_001));
  });
});

describe('Asaas subaccount withdrawals', () => {
  it('transfers with the subaccount apiKey to its Pix key, debiting its balance; a repeat of the payout makes no second transfer', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    const made = await adapter.createCharge(charge(8_000, [{ subaccountId: 'sub_ana', splitTarget: ana.splitTarget, amount: 5_000 }]));
    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, made.providerPaymentId);
    const before = await balanceOf(ana);
    const mainBefore = (await adapter.getBalance()).available;
    const payoutId = newId('payout');
    const withdrawal = await adapter.withdrawFromSubaccount({ ...source(ana), payoutId, amount: 4_000 });
    expect(withdrawal).toMatchObject({ payoutId, amount: 4_000, status: 'processing' });
    expect(withdrawal.wholeBalance).toBeUndefined();
    expect(await balanceOf(ana)).toBe(before - 4_000);
    expect((await adapter.getBalance()).available).toBe(mainBefore);

    const again = await adapter.withdrawFromSubaccount({ ...source(ana), payoutId, amount: 4_000 });
    expect(again.providerTransferId).toBe(withdrawal.providerTransferId);
    expect(await balanceOf(ana)).toBe(before - 4_000);
    const transfers = await asaas<{ data: { id: string; externalReference: string; pixAddressKey: string; pixAddressKeyType: string }[] }>('/transfers?limit=100', ana.issuedSecret);
    expect(transfers.data).toEqual([expect.objectContaining({ id: withdrawal.providerTransferId, externalReference: payoutId, pixAddressKey: PIX_KEY.key, pixAddressKeyType: 'EMAIL' })]);
    // The account's own transfers do not show it: it is the subaccount's.
    expect((await asaas<{ data: { externalReference: string }[] }>('/transfers?limit=100')).data.filter((t) => t.externalReference === payoutId)).toEqual([]);

    await expect(adapter.getSubaccountWithdrawal({ ...source(ana), payoutId })).resolves.toMatchObject({ providerTransferId: withdrawal.providerTransferId, amount: 4_000 });
    await expect(adapter.getSubaccountWithdrawal({ ...source(ana), payoutId, providerTransferId: withdrawal.providerTransferId })).resolves.toMatchObject({ payoutId });
    await expect(adapter.getSubaccountWithdrawal({ ...source(ana), payoutId: newId('payout') })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refuses more than the subaccount balance as insufficient_balance', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    await expect(adapter.withdrawFromSubaccount({ ...source(ana), payoutId: newId('payout'), amount: 100 })).rejects.toMatchObject({
      kind: 'rejected',
      normalizedCode: 'insufficient_balance',
      param: { name: 'amount', publicMessage: 'Saldo insuficiente na subconta Asaas para este saque.' },
    });
  });

  it('refuses a subaccount without a Pix key (nowhere to send), and one whose apiKey is not kept, before calling Asaas', async () => {
    const ana = await adapter.createSubaccount(person(newId('subaccount')));
    const noKey = await adapter.withdrawFromSubaccount({ ...source(ana, false), payoutId: newId('payout'), amount: 100 }).catch((e: unknown) => e);
    expect(noKey).toMatchObject({ kind: 'rejected', param: { name: 'subaccount_id', publicMessage: expect.stringContaining('não tem chave Pix cadastrada para saques') } });
    const { issuedSecret: _secret, ...withoutSecret } = source(ana);
    await expect(adapter.withdrawFromSubaccount({ ...withoutSecret, payoutId: newId('payout'), amount: 100 })).rejects.toMatchObject({ kind: 'rejected', param: { name: 'subaccount_id' } });
    // Neither reached Asaas: the subaccount has no transfer.
    expect((await asaas<{ totalCount: number }>('/transfers', ana.issuedSecret)).totalCount).toBe(0);
  });
});

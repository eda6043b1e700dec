/**
 * Contract test for Woovi subaccounts: the real WooviAdapter over real HTTP against the Woovi
 * emulator. A subaccount is its Pix key: a repeat with the same key answers the first (nothing
 * new at Woovi), it is active at once (no identity onboarding), and its balance is the read's.
 * The shared subaccount contract (testing/subaccount-contract-kit.ts) without its approval step: a
 * Woovi subaccount has no registration analysis and no status to move.
 */
import { createWooviEmulator, type WooviEmulator } from '@orquestra/emulators';
import { ProviderError } from '../provider-adapter';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';
import { subaccountContract, type SubaccountContractTarget } from '../testing/subaccount-contract-kit';

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX3N1YmFjY291bnRzOnNlY3JldA';

let emulator: WooviEmulator;
let contract: WooviContract;
let adapter: WooviAdapter;

const input = (over: Partial<CreateSubaccountInput> = {}): CreateSubaccountInput => ({
  subaccountId: 'sub_01JWOOVI0000000000000001',
  type: 'individual',
  name: 'Ana Lima',
  document: '52998224725',
  pixKey: { keyType: 'email', key: 'ana.lima@exemplo.com' },
  ...over,
});

async function listed(): Promise<{ pixKey: string }[]> {
  const answer = await fetch(`${contract.apiUrl}/api/v1/subaccount?limit=100`, { headers: { authorization: APP_ID } });
  return ((await answer.json()) as { subAccounts: { pixKey: string }[] }).subAccounts;
}

async function credit(pixKey: string, amount: number): Promise<void> {
  const answer = await fetch(`${contract.controlUrl}/__control/subaccounts/${encodeURIComponent(pixKey)}/credit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: APP_ID, amount }),
  });
  expect(answer.status).toBe(200);
}

/** One Pix key per subaccount id: Woovi keeps no id of ours, the key is the subaccount. */
const keyOf = (subaccountId: string) => `${subaccountId.toLowerCase()}@exemplo.com`;

const target = (): SubaccountContractTarget => ({
  adapter,
  controlUrl: contract.controlUrl,
  input: (subaccountId) => input({ subaccountId, pixKey: { keyType: 'email', key: keyOf(subaccountId) } }),
  missing: { input: (subaccountId) => input({ subaccountId, pixKey: undefined }), param: 'pix_key' },
  countAtProvider: async (subaccountId) => (await listed()).filter((s) => s.pixKey === keyOf(subaccountId)).length,
  credit: (subaccount, amount) => credit(subaccount.providerSubaccountId, amount),
  createdStatus: 'active',
});

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 } });
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: 'whsec_subaccounts_w1', account: 'acc_s', emulator });
  adapter = contract.adapter;
});

afterAll(async () => {
  await contract?.stop();
});

describe('Woovi subaccounts: the shared contract', () => {
  subaccountContract(target, { analysesRegistration: false });
});

describe('Woovi subaccounts: its own', () => {
  it('declares a name and the Pix key as what Woovi requires', () => {
    expect(WooviAdapter.subaccountRequirements).toEqual([{ field: 'name' }, { field: 'pix_key' }]);
  });

  it('creates a subaccount keyed by its Pix key, active at once; a repeat answers the same one and makes nothing new', async () => {
    const first = await adapter.createSubaccount(input());
    expect(first).toEqual({
      providerSubaccountId: 'ana.lima@exemplo.com',
      status: 'active',
      statusDetail: expect.stringContaining('não exige verificação'),
      providerStatus: 'ACTIVE',
      details: { pix_key: 'ana.lima@exemplo.com', name: 'Ana Lima' },
      splitTarget: 'ana.lima@exemplo.com',
    });
    const again = await adapter.createSubaccount(input());
    expect(again).toEqual(first);
    expect((await listed()).filter((s) => s.pixKey === 'ana.lima@exemplo.com')).toHaveLength(1);
    expect(await adapter.getSubaccount('ana.lima@exemplo.com')).toEqual(first);
  });

  it('refuses a create without a Pix key before any request, naming pix_key', async () => {
    const before = (await listed()).length;
    const error = await adapter.createSubaccount(input({ subaccountId: 'sub_01JWOOVI0000000000000002', pixKey: undefined })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'pix_key', publicMessage: expect.stringContaining('chave Pix') } });
    expect((await listed()).length).toBe(before);
  });

  it('a Pix key Woovi refuses is rejected naming pix_key', async () => {
    const error = await adapter.createSubaccount(input({ subaccountId: 'sub_01JWOOVI0000000000000003', pixKey: { keyType: 'email', key: 'não é uma chave' } })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'pix_key' } });
  });

  it('reads the balance the subaccount holds (cents)', async () => {
    await adapter.createSubaccount(input({ subaccountId: 'sub_01JWOOVI0000000000000004', name: 'Loja Bruno', pixKey: { keyType: 'cpf', key: '39053344705' } }));
    expect(await adapter.getSubaccountBalance('39053344705')).toMatchObject({ available: 0 });
    await credit('39053344705', 7_000);
    const balance = await adapter.getSubaccountBalance('39053344705');
    expect(balance).toEqual({ available: 7_000, asOf: expect.any(Date) });
  });
});

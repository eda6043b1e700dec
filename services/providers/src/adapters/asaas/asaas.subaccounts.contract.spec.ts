/**
 * Contract test for subaccounts: the real AsaasAdapter over real HTTP against the Asaas emulator
 * (the shared contract, testing/subaccount-contract-kit.ts), plus what is Asaas's own: the apiKey
 * answered once (a repeat create has none) and needed for status and balance, the refusal of a
 * company without companyType, and the emulator's own 400 for a field the adapter did not check.
 */
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import type { AdapterContext } from '../provider-adapter';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { AsaasAdapter } from './asaas.adapter';
import { randomCpf, subaccountContract, type SubaccountContractTarget } from '../testing/subaccount-contract-kit';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnN1YmFjY291bnRzLWE=';

let emulator: AsaasEmulator;
let controlUrl: string;
let apiUrl: string;
let adapter: AsaasAdapter;

/** One person per subaccount id: a repeat create sends the same request. */
const cpfs = new Map<string, string>();
const cpfOf = (subaccountId: string) => cpfs.get(subaccountId) ?? cpfs.set(subaccountId, randomCpf()).get(subaccountId)!;

const person = (subaccountId: string): CreateSubaccountInput => ({
  subaccountId,
  type: 'individual',
  name: 'Ana Lima',
  document: cpfOf(subaccountId),
  email: `ana.${subaccountId}@exemplo.com`,
  phone: '11988451155',
  birthdate: '1990-05-16',
  monthlyIncome: 500_000,
  address: { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' },
});

async function asaas<T>(path: string): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, { headers: { access_token: API_KEY, 'user-agent': 'contract-test' } });
  return (await response.json()) as T;
}

const target = (): SubaccountContractTarget => ({
  adapter,
  controlUrl,
  input: person,
  missing: {
    input: (subaccountId) => {
      const { birthdate: _birthdate, ...rest } = person(subaccountId);
      return rest;
    },
    param: 'birthdate',
  },
  countAtProvider: async (subaccountId) => (await asaas<{ data: unknown[] }>(`/accounts?externalReference=${subaccountId}`)).data.length,
  credit: async (subaccount, amount) => {
    const response = await fetch(`${controlUrl}/__control/balance/credit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: subaccount.issuedSecret, amount }),
    });
    if (!response.ok) throw new Error(`credit: HTTP ${response.status}`);
  },
  createdStatus: 'pending',
});

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 } });
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

describe('Asaas subaccounts: the shared contract', () => {
  subaccountContract(target, { analysesRegistration: true });
});

describe('Asaas subaccounts: its own', () => {
  it('answers the apiKey and walletId once; a repeat create finds the account without the key', async () => {
    const subaccountId = newId('subaccount');
    const first = await adapter.createSubaccount(person(subaccountId));
    expect(first.issuedSecret).toMatch(/^\$aact_hmlg_/);
    expect(first.details).toEqual({ wallet_id: expect.any(String), login_email: `ana.${subaccountId}@exemplo.com` });
    const again = await adapter.createSubaccount(person(subaccountId));
    expect(again.providerSubaccountId).toBe(first.providerSubaccountId);
    expect(again.issuedSecret).toBeUndefined();
  });

  it('reads status and balance only with the subaccount apiKey', async () => {
    const made = await adapter.createSubaccount(person(newId('subaccount')));
    await expect(adapter.getSubaccount(made.providerSubaccountId)).rejects.toMatchObject({ kind: 'rejected' });
    await expect(adapter.getSubaccountBalance(made.providerSubaccountId)).rejects.toMatchObject({ kind: 'rejected' });
    await expect(adapter.getSubaccount(made.providerSubaccountId, made.issuedSecret)).resolves.toMatchObject({ status: 'pending', providerStatus: 'PENDING', statusDetail: expect.stringContaining('pendente de envio') });
  });

  it('refuses a company without company_type, naming it', async () => {
    const subaccountId = newId('subaccount');
    const company: CreateSubaccountInput = { ...person(subaccountId), type: 'company', document: '11222333000181', name: 'Loja Lima LTDA' };
    await expect(adapter.createSubaccount(company)).rejects.toMatchObject({ kind: 'rejected', param: { name: 'company.company_type' } });
    const made = await adapter.createSubaccount({ ...company, company: { companyType: 'LIMITED' } });
    expect(made.status).toBe('pending');
  });

  it("passes Asaas's own refusal on as rejected, naming our field (a postal code it cannot place)", async () => {
    const input = person(newId('subaccount'));
    await expect(adapter.createSubaccount({ ...input, address: { ...input.address!, zip: '123' } })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('invalid_postalCode'),
      param: { name: 'address', publicMessage: 'O Asaas recusou address: O CEP informado é inválido.' },
    });
  });
});

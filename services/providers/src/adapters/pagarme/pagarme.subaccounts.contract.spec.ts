/**
 * Contract test for subaccounts: the real PagarmeAdapter over real HTTP against the Pagar.me
 * emulator (the shared contract, testing/subaccount-contract-kit.ts), plus what is Pagar.me's own:
 * the KYC link while in registration, the recipient found by its code after the idempotency key
 * expired, blocked, a company with its administrator, and Pagar.me's own 422 passed on.
 */
import { createPagarmeEmulator, type PagarmeEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import type { AdapterContext } from '../provider-adapter';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { PagarmeAdapter } from './pagarme.adapter';
import { randomCpf, setSubaccountStatus, subaccountContract, type SubaccountContractTarget } from '../testing/subaccount-contract-kit';

jest.setTimeout(30_000);

const KEY = 'sk_test_subaccountContract01';

let emulator: PagarmeEmulator;
let controlUrl: string;
let apiUrl: string;
let adapter: PagarmeAdapter;

/** One person per subaccount id: a repeat create sends the same request. */
const cpfs = new Map<string, string>();
const cpfOf = (subaccountId: string) => cpfs.get(subaccountId) ?? cpfs.set(subaccountId, randomCpf()).get(subaccountId)!;
const ADDRESS = { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' };

const person = (subaccountId: string): CreateSubaccountInput => ({
  subaccountId,
  type: 'individual',
  name: 'Ana Lima',
  document: cpfOf(subaccountId),
  email: 'ana@exemplo.com',
  phone: '+55 11 98845-1155',
  birthdate: '1990-05-16',
  occupation: 'Artesã',
  monthlyIncome: 500_000,
  address: ADDRESS,
  bankAccount: { bank: '001', branch: '1234', account: '12345678', accountDigit: '9', type: 'checking', holderName: 'Ana Lima' },
});

const target = (): SubaccountContractTarget => ({
  adapter,
  controlUrl,
  input: person,
  missing: {
    input: (subaccountId) => {
      const { occupation: _occupation, ...rest } = person(subaccountId);
      return rest;
    },
    param: 'occupation',
  },
  countAtProvider: async (subaccountId) => {
    const response = await fetch(`${apiUrl}/recipients`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` } });
    return ((await response.json()) as { data: { code?: string }[] }).data.filter((r) => r.code === subaccountId).length;
  },
  credit: async (subaccount, amount) => {
    const response = await fetch(`${controlUrl}/__control/balance/credit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: subaccount.providerSubaccountId, amount }),
    });
    if (!response.ok) throw new Error(`credit: HTTP ${response.status}`);
  },
  createdStatus: 'pending',
});

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

describe('Pagar.me subaccounts: the shared contract', () => {
  subaccountContract(target, { analysesRegistration: true });
});

describe('Pagar.me subaccounts: its own', () => {
  it('is a recipient in registration with its bank account masked, and gives the KYC link until active', async () => {
    const made = await adapter.createSubaccount(person(newId('subaccount')));
    expect(made).toMatchObject({ providerSubaccountId: expect.stringMatching(/^rp_/), status: 'pending', providerStatus: 'registration', details: { login_email: 'ana@exemplo.com', bank_account: '001 ag. 1234 cc ******78-9' } });
    expect(made.issuedSecret).toBeUndefined();
    const link = await adapter.onboardingLink(made.providerSubaccountId);
    expect(link.url).toMatch(/^https:\/\//);
    expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(Buffer.from(link.qrCodeBase64 ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG');
    await setSubaccountStatus(controlUrl, made.providerSubaccountId, 'active');
    await expect(adapter.onboardingLink(made.providerSubaccountId)).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('finds the recipient by its code when the idempotency key is gone (a reset clears keys, not recipients)', async () => {
    const subaccountId = newId('subaccount');
    const first = await adapter.createSubaccount(person(subaccountId));
    await fetch(`${controlUrl}/__control/reset`, { method: 'POST' });
    await expect(adapter.createSubaccount(person(subaccountId))).resolves.toMatchObject({ providerSubaccountId: first.providerSubaccountId });
    expect(await target().countAtProvider(subaccountId)).toBe(1);
  });

  it('answers refused with the reason, and blocked', async () => {
    const refused = await adapter.createSubaccount(person(newId('subaccount')));
    await setSubaccountStatus(controlUrl, refused.providerSubaccountId, 'refused', 'documento ilegível');
    await expect(adapter.getSubaccount(refused.providerSubaccountId)).resolves.toMatchObject({ status: 'refused', providerStatus: 'refused', statusDetail: 'Recusado pela Pagar.me: documento ilegível.' });
    const blocked = await adapter.createSubaccount(person(newId('subaccount')));
    await setSubaccountStatus(controlUrl, blocked.providerSubaccountId, 'blocked');
    await expect(adapter.getSubaccount(blocked.providerSubaccountId)).resolves.toMatchObject({ status: 'blocked', providerStatus: 'blocked' });
  });

  it('creates a company with its administrator, and names a missing administrator field', async () => {
    const subaccountId = newId('subaccount');
    const partner = { name: 'Ana Lima', document: randomCpf(), email: 'ana@exemplo.com', phone: '11988451155', birthdate: '1990-05-16', occupation: 'Empresária', monthlyIncome: 800_000, address: ADDRESS };
    const company: CreateSubaccountInput = {
      ...person(subaccountId),
      type: 'company',
      name: 'Loja Lima LTDA',
      document: '11222333000181',
      company: { tradingName: 'Loja Lima', annualRevenue: 120_000_000, foundingDate: '2015-03-01' },
      partner,
    };
    const { occupation: _occupation, ...partnerWithout } = partner;
    await expect(adapter.createSubaccount({ ...company, partner: partnerWithout })).rejects.toMatchObject({ kind: 'rejected', param: { name: 'partner.occupation' } });
    await expect(adapter.createSubaccount(company)).resolves.toMatchObject({ status: 'pending', providerStatus: 'registration' });
  });

  it("passes Pagar.me's own refusal on as rejected, naming our field (a bank code not of 3 digits)", async () => {
    const input = person(newId('subaccount'));
    await expect(adapter.createSubaccount({ ...input, bankAccount: { ...input.bankAccount!, bank: '01' } })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('recipient.default_bank_account.bank'),
      param: { name: 'bank_account', publicMessage: 'A Pagar.me recusou bank_account: confira o valor informado.' },
    });
  });
});

import { modeFromName } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { ProviderError, type ProviderAdapter } from '../adapters/provider-adapter';
import type { CreateSubaccountInput, OnboardingLink, ProviderSubaccount, SubaccountRequirement } from '../adapters/provider-subaccounts';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import { subaccountHandlers } from './subaccount.handlers';

// Fakes for the collaborators (the account service, the secret store, the adapter); the handlers under test are the real ones.
const SECRET = '$aact_hmlg_issued_for_the_subaccount';
const made: ProviderSubaccount = { providerSubaccountId: 'acc_1', status: 'pending', statusDetail: 'Em análise.', providerStatus: 'PENDING', details: { wallet_id: 'w_1' }, splitTarget: 'w_1' };

/** A SubaccountCapable adapter whose class declares a requirement table, as the real ones do. */
class FakeSubaccounts {
  static readonly subaccountRequirements: readonly SubaccountRequirement[] = [
    { field: 'email' },
    { field: 'birthdate', onlyFor: 'individual' },
    { field: 'company.company_type', onlyFor: 'company' },
    { field: 'address' },
  ];
  readonly created: CreateSubaccountInput[] = [];
  readonly reads: Array<{ method: string; id: string; secret: string | undefined }> = [];
  answer: ProviderSubaccount = { ...made, issuedSecret: SECRET };
  createSubaccount(input: CreateSubaccountInput): Promise<ProviderSubaccount> {
    this.created.push(input);
    return Promise.resolve(this.answer);
  }
  getSubaccount(id: string, secret?: string): Promise<ProviderSubaccount> {
    this.reads.push({ method: 'getSubaccount', id, secret });
    return Promise.resolve({ ...made, status: 'active', issuedSecret: SECRET });
  }
  getSubaccountBalance(id: string, secret?: string) {
    this.reads.push({ method: 'getSubaccountBalance', id, secret });
    return Promise.resolve({ available: 12_345, asOf: new Date('2026-11-24T10:00:00Z') });
  }
}

class FakeWithOnboarding extends FakeSubaccounts {
  onboardingLink(id: string): Promise<OnboardingLink> {
    return Promise.resolve({ url: `https://kyc.exemplo/${id}`, expiresAt: new Date('2026-11-25T10:00:00Z') });
  }
}

function handlersWith(adapter: object, options: { provider?: string; enabled?: boolean } = {}) {
  const doc = { _id: 'pa_1', provider: options.provider ?? 'asaas', mode: 'test', enabled: options.enabled ?? true } as ProviderAccountDoc;
  const calls: string[] = [];
  const accounts = {
    get: () => Promise.resolve(doc),
    adapterFor: () => adapter as ProviderAdapter,
    call: <T>(_doc: ProviderAccountDoc, operation: (a: ProviderAdapter) => Promise<T>) => {
      calls.push('breaker');
      return operation(adapter as ProviderAdapter);
    },
  } as unknown as ProviderAccountService;
  const stored = new Map<string, string>();
  const kept: string[] = [];
  const secrets = {
    keep: (accountId: string, subaccountId: string, providerSubaccountId: string, secret: string) => {
      kept.push(`${accountId}/${subaccountId} (${providerSubaccountId})`);
      if (!stored.has(`${accountId}/${subaccountId}`)) stored.set(`${accountId}/${subaccountId}`, secret);
      return Promise.resolve();
    },
    find: (accountId: string, subaccountId: string) => Promise.resolve(stored.get(`${accountId}/${subaccountId}`)),
  } as unknown as SubaccountSecrets;
  return { handlers: subaccountHandlers(accounts, secrets), calls, kept, stored };
}

const account = { merchant_id: 'acct_1', mode: modeFromName('test'), account_id: 'pa_1' };
const address = { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310100' };
const person = { name: 'Ana Lima', document: '529.982.247-25', email: 'ana@exemplo.com', phone: '', birthdate: '1990-05-16', mother_name: '', occupation: '', monthly_income: 500_000, address };
const createRequest = { account, subaccount_id: 'sub_1', type: 'individual', person, transfer_interval: '' };
const ref = { account, subaccount_id: 'sub_1', provider_subaccount_id: 'acc_1' };

describe('subaccount handlers', () => {
  it('maps the request to the adapter’s input (document normalized, blanks absent) and never answers the issued secret', async () => {
    const adapter = new FakeSubaccounts();
    const { handlers, calls } = handlersWith(adapter);
    const answer = await handlers.createSubaccount(
      { ...createRequest, pix_key: { key_type: 'email', key: 'ana@exemplo.com' }, bank_account: { bank: '341', branch: '0001', branch_digit: '', account: '12345', account_digit: '6', type: 'checking', holder_name: 'Ana Lima' }, transfer_interval: 'weekly' } as never,
      {} as never,
    );
    expect(adapter.created).toEqual([
      {
        subaccountId: 'sub_1',
        type: 'individual',
        name: 'Ana Lima',
        document: '52998224725',
        email: 'ana@exemplo.com',
        birthdate: '1990-05-16',
        monthlyIncome: 500_000,
        address,
        bankAccount: { bank: '341', branch: '0001', account: '12345', accountDigit: '6', type: 'checking', holderName: 'Ana Lima' },
        pixKey: { keyType: 'email', key: 'ana@exemplo.com' },
        transferInterval: 'weekly',
      },
    ]);
    expect(answer).toEqual({ subaccount: { provider_subaccount_id: 'acc_1', status: 'pending', status_detail: 'Em análise.', provider_status: 'PENDING', details: { wallet_id: 'w_1' }, split_target: 'w_1' }, provider: 'asaas' });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(calls).toEqual(['breaker']);
  });

  it('answers a missing requirement as parameter_missing on the public field, before any provider call', async () => {
    const adapter = new FakeSubaccounts();
    const { handlers, calls } = handlersWith(adapter);
    await expect(handlers.createSubaccount({ ...createRequest, person: { ...person, birthdate: '' } } as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'birthdate',
      message: 'O provedor desta conta (Asaas) exige birthdate para subcontas de pessoa física: informe birthdate no formato AAAA-MM-DD.',
    });
    await expect(handlers.createSubaccount({ ...createRequest, type: 'company', company: { trading_name: 'Loja', company_type: '', founding_date: '' } } as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'company.company_type',
    });
    expect(adapter.created).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('answers the provider’s refusal of one field as parameter_invalid on it, with its message', async () => {
    const adapter = new FakeSubaccounts();
    adapter.createSubaccount = () =>
      Promise.reject(new ProviderError('rejected', 'provider_rejected', 'invalid_postalCode', 400, { name: 'address', publicMessage: 'O Asaas recusou address: O CEP informado é inválido.' }));
    const { handlers, kept } = handlersWith(adapter);
    await expect(handlers.createSubaccount(createRequest as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'address',
      message: 'O Asaas recusou address: O CEP informado é inválido.',
    });
    expect(kept).toEqual([]);
  });

  it('keeps the issued secret once (a repeat answered without it stores nothing) and hands it to the reads only', async () => {
    const adapter = new FakeSubaccounts();
    const { handlers, kept, stored } = handlersWith(adapter);
    await handlers.createSubaccount(createRequest as never, {} as never);
    adapter.answer = made;
    await handlers.createSubaccount(createRequest as never, {} as never);
    expect(kept).toEqual(['pa_1/sub_1 (acc_1)']);
    expect(stored.get('pa_1/sub_1')).toBe(SECRET);

    const got = await handlers.getSubaccount(ref, {} as never);
    const balance = await handlers.getSubaccountBalance(ref, {} as never);
    expect(adapter.reads).toEqual([
      { method: 'getSubaccount', id: 'acc_1', secret: SECRET },
      { method: 'getSubaccountBalance', id: 'acc_1', secret: SECRET },
    ]);
    expect(got.subaccount).toMatchObject({ status: 'active' });
    expect(JSON.stringify(got)).not.toContain(SECRET);
    expect(balance).toEqual({ balance: { available: 12_345, currency: 'BRL', as_of: '2026-11-24T10:00:00.000Z' } });
  });

  it('reads a subaccount without a stored secret with none', async () => {
    const adapter = new FakeSubaccounts();
    const { handlers } = handlersWith(adapter, { provider: 'pagarme' });
    await handlers.getSubaccount({ ...ref, subaccount_id: 'sub_2' }, {} as never);
    expect(adapter.reads).toEqual([{ method: 'getSubaccount', id: 'acc_1', secret: undefined }]);
  });

  it('answers an id the provider does not know as not_found on subaccount_id', async () => {
    const adapter = new FakeSubaccounts();
    adapter.getSubaccount = () => Promise.reject(new ProviderError('not_found', 'not_found', 'no such account'));
    const { handlers } = handlersWith(adapter);
    await expect(handlers.getSubaccount(ref, {} as never)).rejects.toMatchObject({ code: 'not_found', param: 'subaccount_id' });
  });

  it('creates the onboarding link where the provider has one, with expires_at in ISO', async () => {
    const { handlers } = handlersWith(new FakeWithOnboarding(), { provider: 'pagarme' });
    await expect(handlers.createOnboardingLink(ref, {} as never)).resolves.toEqual({ url: 'https://kyc.exemplo/acc_1', expires_at: '2026-11-25T10:00:00.000Z' });
  });

  it('says why there is no onboarding link where the provider has none (invalid_request on id)', async () => {
    await expect(handlersWith(new FakeSubaccounts(), { provider: 'woovi' }).handlers.createOnboardingLink(ref, {} as never)).rejects.toMatchObject({
      code: 'invalid_request',
      param: 'id',
      message: 'Este provedor não tem cadastro guiado: a subconta fica ativa sem ele.',
    });
    await expect(handlersWith(new FakeSubaccounts(), { provider: 'asaas' }).handlers.createOnboardingLink(ref, {} as never)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('analisa a subconta'),
    });
  });

  it('refuses an account whose provider has no subaccounts, naming provider_account_id', async () => {
    const { handlers } = handlersWith({ getBalance: () => Promise.resolve({}) }, { provider: 'efi' });
    const error = await handlers.createSubaccount(createRequest as never, {} as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'provider_rejected', param: 'provider_account_id', message: expect.stringContaining('Este provedor não oferece subcontas pela API') });
    await expect(handlers.getSubaccountBalance(ref, {} as never)).rejects.toMatchObject({ code: 'provider_rejected', param: 'provider_account_id' });
  });

  it('refuses a closed-set value outside its set and a disabled account, before any provider call', async () => {
    const adapter = new FakeSubaccounts();
    const { handlers, calls } = handlersWith(adapter);
    await expect(handlers.createSubaccount({ ...createRequest, type: 'mei' } as never, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'type' });
    await expect(handlers.createSubaccount({ ...createRequest, pix_key: { key_type: 'evp', key: 'x' } } as never, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'pix_key.key_type' });
    await expect(handlersWith(adapter, { enabled: false }).handlers.createSubaccount(createRequest as never, {} as never)).rejects.toMatchObject({ code: 'provider_rejected', param: 'provider_account_id' });
    expect(calls).toEqual([]);
  });
});

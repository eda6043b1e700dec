import { modeFromName } from '@orquestra/contracts';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import { ProviderError, type ProviderAdapter } from '../adapters/provider-adapter';
import type { CreateTransferInput, ProviderTransfer } from '../adapters/provider-payouts';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { payoutHandlers } from './payout.handlers';

// Fakes for the collaborators (the account service, the adapter); the handlers under test are the real ones.
const transfer: ProviderTransfer = { providerTransferId: 'tr_1', payoutId: 'po_1', status: 'processing', providerStatus: 'EM_PROCESSAMENTO', amount: 5_000 };

function handlersWith(adapter: Record<string, unknown>, options: { enabled?: boolean } = {}) {
  const doc = { _id: 'pa_1', provider: 'efi', mode: 'test', enabled: options.enabled ?? true } as ProviderAccountDoc;
  const calls: string[] = [];
  const accounts = {
    get: () => Promise.resolve(doc),
    adapterFor: () => adapter as unknown as ProviderAdapter,
    call: <T>(_doc: ProviderAccountDoc, operation: (a: ProviderAdapter) => Promise<T>) => {
      calls.push('breaker');
      return operation(adapter as unknown as ProviderAdapter);
    },
  } as unknown as ProviderAccountService;
  // These transfers are the account's own: the subaccount credential store is never asked.
  const noSubaccountSecrets = { find: () => Promise.reject(new Error('not a withdrawal')) } as unknown as SubaccountSecrets;
  return { handlers: payoutHandlers(accounts, noSubaccountSecrets), calls };
}

const account = { merchant_id: 'acct_1', mode: modeFromName('test'), account_id: 'pa_1' };

const capable = (overrides: Record<string, unknown> = {}) => ({
  payoutDestinations: ['pix_key'],
  getBalance: () => Promise.resolve({ available: 12_34, currency: 'BRL', asOf: new Date('2026-11-24T10:00:00Z') }),
  createTransfer: () => Promise.resolve(transfer),
  getTransfer: () => Promise.resolve({ ...transfer, status: 'paid', providerStatus: 'REALIZADO', paidAt: new Date('2026-11-24T10:01:00Z'), endToEndId: 'E123', fee: 0 }),
  ...overrides,
});

const createRequest = { account, payout_id: 'po_1', amount: 5_000, destination: { type: 'pix_key', key_type: 'email', key: 'fin@loja.com' }, description: 'Repasse' };

describe('payout handlers', () => {
  it('reads the balance through the breaker; a pending the provider does not state stays absent', async () => {
    const { handlers, calls } = handlersWith(capable());
    await expect(handlers.getBalance({ account }, {} as never)).resolves.toEqual({ balance: { available: 1_234, currency: 'BRL', as_of: '2026-11-24T10:00:00.000Z' }, provider: 'efi' });
    expect(calls).toEqual(['breaker']);
  });

  it('maps the request to the adapter’s input and the transfer to the message (absent stays absent)', async () => {
    const seen: CreateTransferInput[] = [];
    const { handlers } = handlersWith(capable({ createTransfer: (input: CreateTransferInput) => Promise.resolve(void seen.push(input)).then(() => transfer) }));
    const answer = await handlers.createTransfer(createRequest as never, {} as never);
    expect(seen).toEqual([{ payoutId: 'po_1', amount: 5_000, destination: { type: 'pix_key', keyType: 'email', key: 'fin@loja.com' }, description: 'Repasse' }]);
    expect(answer).toEqual({ transfer: { provider_transfer_id: 'tr_1', payout_id: 'po_1', status: 'processing', provider_status: 'EM_PROCESSAMENTO', amount: 5_000, whole_balance: false }, provider: 'efi' });
  });

  it('finds a transfer by our payout id, with every optional field', async () => {
    const seen: unknown[] = [];
    const { handlers } = handlersWith(capable({ getTransfer: (input: unknown) => Promise.resolve(void seen.push(input)).then(() => capable().getTransfer()) }));
    const answer = await handlers.getTransfer({ account, payout_id: 'po_1' }, {} as never);
    expect(seen).toEqual([{ payoutId: 'po_1' }]);
    expect(answer.transfer).toEqual({
      provider_transfer_id: 'tr_1',
      payout_id: 'po_1',
      status: 'paid',
      provider_status: 'REALIZADO',
      amount: 5_000,
      fee: 0,
      paid_at: '2026-11-24T10:01:00.000Z',
      end_to_end_id: 'E123',
      whole_balance: false,
    });
  });

  it.each(['getBalance', 'createTransfer', 'getTransfer'] as const)('%s: an adapter without payouts is provider_rejected in Portuguese, naming provider_account_id, before any call', async (rpc) => {
    const { handlers, calls } = handlersWith({ createCharge: () => Promise.reject(new Error('unused')) });
    const request = { ...createRequest, account } as never;
    await expect(handlers[rpc](request, {} as never)).rejects.toMatchObject({
      code: 'provider_rejected',
      param: 'provider_account_id',
      message: expect.stringMatching(/^Este provedor não faz repasses pela API: a conta pa_1 \(efi\)/),
    });
    expect(calls).toEqual([]);
  });

  it('an adapter with the methods but no destination has no payouts either', async () => {
    const { handlers } = handlersWith(capable({ payoutDestinations: [] }));
    await expect(handlers.getBalance({ account }, {} as never)).rejects.toMatchObject({ code: 'provider_rejected', param: 'provider_account_id' });
  });

  it.each([
    ['ambiguous timeout', new ProviderError('ambiguous', 'provider_timeout', 'no answer'), 'provider_timeout'],
    ['ambiguous 503', new ProviderError('ambiguous', 'provider_unavailable', '503'), 'provider_unavailable'],
    ['ambiguous 500 after sending', new ProviderError('ambiguous', 'provider_error', '500'), 'provider_timeout'],
    ['nothing sent', new ProviderError('not_created', 'provider_unavailable', 'ECONNREFUSED'), 'provider_unavailable'],
  ])('a lost answer (%s) surfaces as such, tried once', async (_name, error, code) => {
    let tries = 0;
    const { handlers } = handlersWith(capable({ createTransfer: () => {
        tries += 1;
        return Promise.reject(error);
      },
    }));
    await expect(handlers.createTransfer(createRequest as never, {} as never)).rejects.toMatchObject({ code });
    expect(tries).toBe(1);
  });

  it('insufficient balance is insufficient_balance on amount', async () => {
    const { handlers } = handlersWith(capable({ createTransfer: () => Promise.reject(new ProviderError('rejected', 'insufficient_balance', 'saldo')) }));
    await expect(handlers.createTransfer(createRequest as never, {} as never)).rejects.toMatchObject({ code: 'insufficient_balance', param: 'amount' });
  });

  it('nothing made under the payout id is not_found on payout_id', async () => {
    const { handlers } = handlersWith(capable({ getTransfer: () => Promise.reject(new ProviderError('not_found', 'not_found', '404')) }));
    await expect(handlers.getTransfer({ account, payout_id: 'po_1' }, {} as never)).rejects.toMatchObject({ code: 'not_found', param: 'payout_id' });
  });

  it.each([
    [{ payout_id: '' }, 'parameter_missing', 'payout_id'],
    [{ amount: 0 }, 'amount_too_small', 'amount'],
    [{ description: 'x'.repeat(141) }, 'parameter_invalid', 'description'],
    [{ destination: undefined }, 'parameter_missing', 'destination.type'],
    [{ destination: { type: 'boleto', key_type: '', key: '' } }, 'parameter_invalid', 'destination.type'],
    [{ destination: { type: 'pix_key', key_type: 'iban', key: 'x' } }, 'parameter_invalid', 'destination.key_type'],
    [{ destination: { type: 'pix_key', key_type: 'cpf', key: '' } }, 'parameter_missing', 'destination.key'],
  ])('refuses %j before any provider call', async (change, code, param) => {
    const { handlers, calls } = handlersWith(capable());
    await expect(handlers.createTransfer({ ...createRequest, ...change } as never, {} as never)).rejects.toMatchObject({ code, param });
    expect(calls).toEqual([]);
  });

  it('a destination the provider does not pay to by API is refused naming the ones it does', async () => {
    const { handlers, calls } = handlersWith(capable());
    await expect(handlers.createTransfer({ ...createRequest, destination: { type: 'account', key_type: '', key: '' } } as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'destination.type',
      message: 'A conta pa_1 (efi) só faz repasses pela API para chaves Pix (pix_key).',
    });
    expect(calls).toEqual([]);
  });

  it('a disabled account sends nothing', async () => {
    const { handlers, calls } = handlersWith(capable(), { enabled: false });
    await expect(handlers.createTransfer(createRequest as never, {} as never)).rejects.toMatchObject({ code: 'provider_rejected', param: 'provider_account_id' });
    expect(calls).toEqual([]);
  });
});

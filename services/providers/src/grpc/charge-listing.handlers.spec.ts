import { modeFromName } from '@orquestra/contracts';
import { ProviderError, type ProviderAdapter } from '../adapters/provider-adapter';
import type { ChargePeriod } from '../adapters/provider-charge-listing';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { chargeListingHandlers } from './charge-listing.handlers';

// Fakes for the collaborators (the account service, the adapter); the handler under test is the real one.
function handlersWith(adapter: Record<string, unknown>) {
  const doc = { _id: 'pa_1', provider: 'asaas', mode: 'test', enabled: true } as ProviderAccountDoc;
  const calls: string[] = [];
  const accounts = {
    get: (merchantId: string, mode: string, id: string) => {
      calls.push(`get ${merchantId} ${mode} ${id}`);
      return Promise.resolve(doc);
    },
    adapterFor: () => adapter as unknown as ProviderAdapter,
    call: <T>(_doc: ProviderAccountDoc, operation: (a: ProviderAdapter) => Promise<T>) => {
      calls.push('breaker');
      return operation(adapter as unknown as ProviderAdapter);
    },
  } as unknown as ProviderAccountService;
  return { handlers: chargeListingHandlers(accounts), calls };
}

const account = { merchant_id: 'acct_1', mode: modeFromName('test'), account_id: 'pa_1' };
const request = { account, from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z', cursor: '' };

describe('ListCharges handler', () => {
  it('resolves the account, passes the period and cursor, maps each charge (an unreported fee stays absent)', async () => {
    const seen: Array<[ChargePeriod, string | null]> = [];
    const { handlers, calls } = handlersWith({
      listCharges: (period: ChargePeriod, cursor: string | null) => {
        seen.push([period, cursor]);
        return Promise.resolve({
          charges: [
            { providerPaymentId: 'ch_1', status: 'paid', amount: 1_000, amountRefunded: 200, fee: 49, method: 'pix', createdAt: new Date('2026-11-01T10:00:00Z'), reference: 'pay_1' },
            { providerPaymentId: 'ch_2', status: 'pending', amount: 500, amountRefunded: 0, fee: null, method: null, createdAt: new Date('2026-11-01T11:00:00Z'), reference: null },
          ],
          next: 'page-2',
        });
      },
    });
    const answer = await handlers.listCharges({ ...request, cursor: 'page-1' }, {} as never);
    expect(seen).toEqual([[{ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-02T00:00:00Z') }, 'page-1']]);
    expect(calls).toEqual(['get acct_1 test pa_1', 'breaker']);
    expect(answer).toEqual({
      supported: true,
      notes: [],
      next_cursor: 'page-2',
      charges: [
        { provider_payment_id: 'ch_1', status: 'paid', amount: 1_000, amount_refunded: 200, fee: 49, method: 'pix', created_at: '2026-11-01T10:00:00.000Z', reference: 'pay_1' },
        { provider_payment_id: 'ch_2', status: 'pending', amount: 500, amount_refunded: 0, method: '', created_at: '2026-11-01T11:00:00.000Z', reference: '' },
      ],
    });
  });

  it('the last page answers an empty next_cursor; the first page asks with a null cursor', async () => {
    const cursors: Array<string | null> = [];
    const { handlers } = handlersWith({ listCharges: (_p: ChargePeriod, cursor: string | null) => Promise.resolve(void cursors.push(cursor)).then(() => ({ charges: [], next: null })) });
    await expect(handlers.listCharges(request, {} as never)).resolves.toEqual({ charges: [], next_cursor: '', supported: true, notes: [] });
    expect(cursors).toEqual([null]);
  });

  it('an adapter without listing answers supported: false without calling the provider', async () => {
    const { handlers, calls } = handlersWith({});
    await expect(handlers.listCharges(request, {} as never)).resolves.toEqual({ charges: [], next_cursor: '', supported: false, notes: [] });
    expect(calls).toEqual(['get acct_1 test pa_1']);
  });

  it('provider failures go through the normalized mapping', async () => {
    const { handlers } = handlersWith({ listCharges: () => Promise.reject(new ProviderError('invalid_credentials', 'invalid_credentials', 'bad key', 401)) });
    await expect(handlers.listCharges(request, {} as never)).rejects.toMatchObject({ code: 'invalid_credentials' });
  });

  it('a missing account or a bad period is a parameter error in Portuguese', async () => {
    const { handlers } = handlersWith({ listCharges: () => Promise.resolve({ charges: [], next: null }) });
    await expect(handlers.listCharges({ ...request, account: undefined }, {} as never)).rejects.toMatchObject({ code: 'parameter_missing', param: 'provider_account_id' });
    await expect(handlers.listCharges({ ...request, from: 'ontem' }, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'from' });
    await expect(handlers.listCharges({ ...request, from: request.to, to: request.from }, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'from' });
  });
});

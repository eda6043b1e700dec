/**
 * The mapping of Pagar.me's order list to ListedCharge and the page cursor (pagarme.listing.ts),
 * over a fake GET that answers written pages; the real list is exercised in
 * pagarme.listing.contract.spec.ts against the emulator.
 */
import { ProviderError } from '../provider-adapter';
import { listedChargeOfOrder, listPagarmeCharges, type PagarmeOrderList } from './pagarme.listing';

const order = (overrides: Record<string, unknown> = {}, charge: Record<string, unknown> = {}) => ({
  id: 'or_1',
  code: 'pay_abc',
  amount: 1990,
  status: 'paid',
  created_at: '2026-03-10T10:00:00Z',
  charges: [{ id: 'ch_1', amount: 1990, status: 'paid', payment_method: 'pix', paid_at: '2026-03-10T10:01:00Z', paid_amount: 1990, created_at: '2026-03-10T10:00:00Z', last_transaction: { qr_code: '000201…' }, ...charge }],
  ...overrides,
});

describe('listedChargeOfOrder', () => {
  it('maps a paid Pix order: id, status, amount, no fee (not in the list), method, time and our code as reference', () => {
    expect(listedChargeOfOrder(order() as never)).toEqual({
      providerPaymentId: 'ch_1',
      status: 'paid',
      amount: 1990,
      amountRefunded: 0,
      fee: null,
      method: 'pix',
      createdAt: new Date('2026-03-10T10:00:00Z'),
      reference: 'pay_abc',
    });
  });

  it('counts canceled_amount as refunded only on a charge that was paid', () => {
    const refunded = listedChargeOfOrder(order({ status: 'canceled' }, { status: 'canceled', canceled_amount: 1990 }) as never);
    expect(refunded).toMatchObject({ status: 'paid', amountRefunded: 1990 });
    const partial = listedChargeOfOrder(order({}, { canceled_amount: 500 }) as never);
    expect(partial).toMatchObject({ status: 'paid', amountRefunded: 500 });
    const canceledPending = listedChargeOfOrder(order({ status: 'canceled' }, { status: 'canceled', canceled_amount: 1990, paid_at: undefined, paid_amount: undefined }) as never);
    expect(canceledPending).toMatchObject({ status: 'canceled', amountRefunded: 0 });
  });

  it('maps statuses through the adapter’s mapping and methods to ours', () => {
    expect(listedChargeOfOrder(order({}, { status: 'pending', paid_at: undefined }) as never)?.status).toBe('pending');
    expect(listedChargeOfOrder(order({}, { status: 'failed', paid_at: undefined }) as never)?.status).toBe('canceled');
    expect(listedChargeOfOrder(order({}, { payment_method: 'credit_card', status: 'failed', paid_at: undefined, last_transaction: { status: 'not_authorized' } }) as never)).toMatchObject({ method: 'card', status: 'failed' });
    expect(listedChargeOfOrder(order({}, { payment_method: 'boleto' }) as never)?.method).toBe('boleto');
    expect(listedChargeOfOrder(order({}, { payment_method: 'voucher' }) as never)?.method).toBeNull();
    expect(listedChargeOfOrder(order({ charges: [] }) as never)).toBeUndefined();
  });

  it('refuses an amount that is not integer cents', () => {
    expect(() => listedChargeOfOrder(order({}, { amount: 19.9 }) as never)).toThrow(RangeError);
  });
});

describe('listPagarmeCharges', () => {
  const period = { from: new Date('2026-03-10T00:00:00Z'), to: new Date('2026-03-11T00:00:00Z') };

  it('asks for the period and the page, drops what Pagar.me returns at the excluded end, and gives the next page as cursor', async () => {
    const asked: string[] = [];
    const pages: PagarmeOrderList[] = [
      { data: [order({ id: 'or_end', created_at: '2026-03-11T00:00:00Z' }, { id: 'ch_end', created_at: '2026-03-11T00:00:00Z' }), order()] as never, paging: { total: 3, next: 'http://x/orders?page=2' } },
      { data: [order({ id: 'or_2' }, { id: 'ch_2' })] as never, paging: { total: 3, previous: 'http://x/orders?page=1' } },
    ];
    const get = (path: string) => {
      asked.push(path);
      return Promise.resolve({ status: 200, body: pages[asked.length - 1], headers: {} } as never);
    };
    const first = await listPagarmeCharges(get, period, null, 2);
    expect(first.charges.map((c) => c.providerPaymentId)).toEqual(['ch_1']);
    expect(first.next).toBe(JSON.stringify({ page: 2 }));
    const second = await listPagarmeCharges(get, period, first.next, 2);
    expect(second).toMatchObject({ charges: [{ providerPaymentId: 'ch_2' }], next: null });
    const query = new URLSearchParams(asked[1]!.split('?')[1]);
    expect(Object.fromEntries(query)).toEqual({ created_since: '2026-03-10T00:00:00.000Z', created_until: '2026-03-11T00:00:00.000Z', page: '2', size: '2' });
  });

  it('refuses a cursor it did not give, and reports a refusal by Pagar.me as a ProviderError', async () => {
    const get = () => Promise.resolve({ status: 401, body: { message: 'Authorization has been denied for this request.' }, headers: {} } as never);
    await expect(listPagarmeCharges(get, period, 'nonsense')).rejects.toBeInstanceOf(ProviderError);
    await expect(listPagarmeCharges(get, period, JSON.stringify({ page: 0 }))).rejects.toBeInstanceOf(ProviderError);
    await expect(listPagarmeCharges(get, period, null)).rejects.toMatchObject({ kind: 'invalid_credentials' });
  });
});

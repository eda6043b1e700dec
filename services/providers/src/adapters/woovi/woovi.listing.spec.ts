/**
 * The mapping of Woovi's charge list to ListedCharge, refunds read beside it, and the skip cursor
 * (woovi.listing.ts), over a fake API answering written pages; the real list is exercised in
 * woovi.listing.contract.spec.ts against the emulator.
 */
import { ProviderError } from '../provider-adapter';
import { listedChargeOf, listWooviCharges } from './woovi.listing';

const charge = (overrides: Record<string, unknown> = {}) => ({ correlationID: 'pay_1:acc_1', status: 'COMPLETED', value: 1990, fee: 16, createdAt: '2026-03-10T10:00:00.000Z', ...overrides });

describe('listedChargeOf', () => {
  it('maps a paid charge: correlationID as id and reference, fee, Pix, creation time', () => {
    expect(listedChargeOf(charge() as never, 500)).toEqual({
      providerPaymentId: 'pay_1:acc_1',
      status: 'paid',
      amount: 1990,
      amountRefunded: 500,
      fee: 16,
      method: 'pix',
      createdAt: new Date('2026-03-10T10:00:00.000Z'),
      reference: 'pay_1:acc_1',
    });
  });

  it('reports no fee before payment and maps statuses through the adapter’s mapping', () => {
    expect(listedChargeOf(charge({ status: 'ACTIVE' }) as never, 0)).toMatchObject({ status: 'pending', fee: null });
    expect(listedChargeOf(charge({ status: 'EXPIRED' }) as never, 0)).toMatchObject({ status: 'canceled', fee: null });
    expect(listedChargeOf(charge({ fee: undefined }) as never, 0).fee).toBeNull();
    expect(() => listedChargeOf(charge({ value: 19.9 }) as never, 0)).toThrow(RangeError);
  });
});

describe('listWooviCharges', () => {
  const period = { from: new Date('2026-03-10T00:00:00Z'), to: new Date('2026-03-11T00:00:00Z') };

  it('asks for the period and the skip, reads refunds of paid charges only (CONFIRMED ones count), drops the excluded end', async () => {
    const asked: string[] = [];
    const api = (_method: string, path: string) => {
      asked.push(path);
      if (path.includes('/refund')) {
        return Promise.resolve({ status: 200, body: { refunds: [{ status: 'CONFIRMED', value: 300, correlationID: 'r1' }, { status: 'IN_PROCESSING', value: 200, correlationID: 'r2' }, { status: 'REJECTED', value: 100, correlationID: 'r3' }] } });
      }
      return Promise.resolve({
        status: 200,
        body: {
          pageInfo: { skip: 0, limit: 3, totalCount: 5, hasNextPage: true },
          charges: [charge(), charge({ correlationID: 'pay_2', status: 'ACTIVE' }), charge({ correlationID: 'pay_end', createdAt: '2026-03-11T00:00:00.000Z' })],
        },
      });
    };
    const page = await listWooviCharges(api as never, period, null, 3);
    expect(page.charges.map((c) => [c.providerPaymentId, c.amountRefunded])).toEqual([['pay_1:acc_1', 300], ['pay_2', 0]]);
    expect(page.next).toBe(JSON.stringify({ skip: 3 }));
    expect(asked.filter((p) => p.includes('/refund'))).toEqual(['/api/v1/charge/pay_1%3Aacc_1/refund']);
    expect(Object.fromEntries(new URLSearchParams(asked[0]!.split('?')[1]))).toEqual({ start: '2026-03-10T00:00:00.000Z', end: '2026-03-11T00:00:00.000Z', skip: '0', limit: '3' });
  });

  it('ends when Woovi says there is no next page; refuses a foreign cursor; reports Woovi’s refusal', async () => {
    const last = () => Promise.resolve({ status: 200, body: { pageInfo: { hasNextPage: false }, charges: [charge({ status: 'ACTIVE' })] } });
    expect((await listWooviCharges(last as never, period, JSON.stringify({ skip: 3 }))).next).toBeNull();
    await expect(listWooviCharges(last as never, period, '{"page":1}')).rejects.toBeInstanceOf(ProviderError);
    const refused = () => Promise.resolve({ status: 401, body: { error: 'appID inválido' } });
    await expect(listWooviCharges(refused as never, period, null)).rejects.toMatchObject({ kind: 'invalid_credentials' });
  });
});

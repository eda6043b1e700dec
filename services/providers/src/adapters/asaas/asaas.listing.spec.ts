import { asaasPaymentListPage, asaasPaymentListPath, asaasPaymentToListedCharge, decodeAsaasListCursor, type AsaasListedPayment } from './asaas.listing';

// 2026-03-01 09:00 to 2026-03-03 00:00 in São Paulo: the days 2026-03-01 and 2026-03-02.
const period = { from: new Date('2026-03-01T12:00:00.000Z'), to: new Date('2026-03-03T03:00:00.000Z') };

const payment = (overrides: Partial<AsaasListedPayment> = {}): AsaasListedPayment => ({
  object: 'payment',
  id: 'pay_0491859546906926',
  customer: 'cus_000005219613',
  value: '100.00',
  netValue: '98.01',
  status: 'PENDING',
  billingType: 'PIX',
  dueDate: '2026-03-02',
  deleted: false,
  dateCreated: '2026-03-01',
  externalReference: 'pay_01:acc_01',
  ...overrides,
});

describe('Asaas charge listing', () => {
  it('asks for the São Paulo days the period touches', () => {
    const url = new URL(`https://x/v3${asaasPaymentListPath(period, 20, 100)}`);
    expect(url.pathname).toBe('/v3/payments');
    expect(Object.fromEntries(url.searchParams)).toEqual({ 'dateCreated[ge]': '2026-03-01', 'dateCreated[le]': '2026-03-02', offset: '20', limit: '100' });
  });

  it('maps a received, partly refunded charge: fee from netValue, DONE refunds only, our reference, the day at 00:00 São Paulo', () => {
    const listed = asaasPaymentToListedCharge(
      payment({
        status: 'RECEIVED',
        refunds: [
          { dateCreated: '2026-03-01 10:00:00', status: 'DONE', value: '10.5' },
          { dateCreated: '2026-03-01 11:00:00', status: 'PENDING', value: '5.00' },
          { dateCreated: '2026-03-01 12:00:00', status: 'CANCELLED', value: '1.00' },
        ],
      }),
    );
    expect(listed).toEqual({
      providerPaymentId: 'pay_0491859546906926',
      status: 'paid',
      amount: 10_000,
      amountRefunded: 1_050,
      fee: 199,
      method: 'pix',
      createdAt: new Date('2026-03-01T03:00:00.000Z'),
      reference: 'pay_01:acc_01',
    });
  });

  it('gives no fee before payment (Asaas only estimates it), and the whole value for REFUNDED without refunds[]', () => {
    expect(asaasPaymentToListedCharge(payment()).fee).toBeNull();
    expect(asaasPaymentToListedCharge(payment({ status: 'REFUNDED', refunds: null })).amountRefunded).toBe(10_000);
    expect(asaasPaymentToListedCharge(payment({ externalReference: null, deleted: true })).reference).toBeNull();
    expect(asaasPaymentToListedCharge(payment({ deleted: true })).status).toBe('canceled');
  });

  it.each([
    ['PIX', 'pix'],
    ['BOLETO', 'boleto'],
    ['CREDIT_CARD', 'card'],
    ['UNDEFINED', null],
  ] as const)('billingType %s is %s', (billingType, method) => {
    expect(asaasPaymentToListedCharge(payment({ billingType })).method).toBe(method);
  });

  it.each([
    ['PENDING', 'pending'],
    ['OVERDUE', 'pending'],
    ['RECEIVED', 'paid'],
    ['CONFIRMED', 'paid'],
    ['REFUNDED', 'paid'],
  ] as const)('status %s is %s', (status, expected) => {
    expect(asaasPaymentToListedCharge(payment({ status })).status).toBe(expected);
  });

  it('pages while hasMore, dropping charges of other days', () => {
    const page = asaasPaymentListPage({ object: 'list', hasMore: true, totalCount: 5, data: [payment({ id: 'a' }), payment({ id: 'b', dateCreated: '2026-03-03' })] }, period, 10);
    expect(page.charges.map((c) => c.providerPaymentId)).toEqual(['a']);
    expect(decodeAsaasListCursor(page.next)).toBe(12);
    expect(asaasPaymentListPage({ object: 'list', hasMore: false, totalCount: 1, data: [payment()] }, period, 0).next).toBeNull();
    expect(asaasPaymentListPage({ object: 'list', hasMore: true, totalCount: 1, data: [] }, period, 0).next).toBeNull();
    expect(decodeAsaasListCursor(null)).toBe(0);
    expect(() => decodeAsaasListCursor('{}')).toThrow(RangeError);
  });
});

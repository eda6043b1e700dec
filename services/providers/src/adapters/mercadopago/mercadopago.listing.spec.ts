import { decodeMercadoPagoListCursor, mercadoPagoSearchPage, mercadoPagoSearchPath, paymentToListedCharge, type MercadoPagoSearchedPayment } from './mercadopago.listing';

const period = { from: new Date('2026-03-01T12:00:00.000Z'), to: new Date('2026-03-02T12:00:00.000Z') };

const payment = (overrides: Partial<MercadoPagoSearchedPayment> = {}): MercadoPagoSearchedPayment => ({
  id: 1_320_000_123,
  status: 'pending',
  status_detail: 'pending_waiting_transfer',
  date_created: '2026-03-01T10:00:00.000-03:00',
  payment_method_id: 'pix',
  payment_type_id: 'bank_transfer',
  transaction_amount: 1990.07,
  fee_details: [],
  external_reference: 'pay_01',
  ...overrides,
});

describe('Mercado Pago charge listing', () => {
  it('searches by creation date, oldest first, with an inclusive end one millisecond before `to`', () => {
    const url = new URL(`https://x${mercadoPagoSearchPath(period, 200, 100)}`);
    expect(url.pathname).toBe('/v1/payments/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sort: 'date_created',
      criteria: 'asc',
      range: 'date_created',
      begin_date: '2026-03-01T09:00:00.000-03:00',
      end_date: '2026-03-02T08:59:59.999-03:00',
      offset: '200',
      limit: '100',
    });
  });

  it('maps an approved, partly refunded payment with its collector fee and our reference', () => {
    const listed = paymentToListedCharge(
      payment({
        status: 'approved',
        status_detail: 'partially_refunded',
        transaction_amount: 100,
        transaction_amount_refunded: 25.5,
        fee_details: [
          { type: 'mercadopago_fee', amount: 0.99, fee_payer: 'collector' },
          { type: 'financing_fee', amount: 3, fee_payer: 'payer' },
        ],
      }),
    );
    expect(listed).toEqual({
      providerPaymentId: '1320000123',
      status: 'paid',
      amount: 10_000,
      amountRefunded: 2_550,
      fee: 99,
      method: 'pix',
      createdAt: new Date('2026-03-01T13:00:00.000Z'),
      reference: 'pay_01',
    });
  });

  it('sums approved refunds when the refunded total is absent; no fee and no reference are null', () => {
    const listed = paymentToListedCharge(
      payment({
        status: 'refunded',
        status_detail: 'refunded',
        transaction_amount: '50.00',
        external_reference: null,
        refunds: [
          { id: 1, payment_id: 1, amount: 30, status: 'approved' },
          { id: 2, payment_id: 1, amount: 20, status: 'approved' },
          { id: 3, payment_id: 1, amount: 5, status: 'rejected' },
        ],
      }),
    );
    expect(listed).toMatchObject({ status: 'paid', amount: 5_000, amountRefunded: 5_000, fee: null, reference: null });
  });

  it.each([
    [{ payment_method_id: 'bolbradesco', payment_type_id: 'ticket' }, 'boleto'],
    [{ payment_method_id: 'master', payment_type_id: 'credit_card' }, 'card'],
    [{ payment_method_id: 'account_money', payment_type_id: 'account_money' }, null],
  ] as const)('method of %j is %s', (fields, method) => {
    expect(paymentToListedCharge(payment(fields)).method).toBe(method);
  });

  it.each([
    ['pending', 'pending_waiting_transfer', 'pending'],
    ['in_process', 'pending_contingency', 'pending'],
    ['approved', 'accredited', 'paid'],
    ['cancelled', 'expired', 'canceled'],
    ['rejected', 'cc_rejected_other_reason', 'failed'],
  ] as const)('status %s/%s is %s', (status, detail, expected) => {
    expect(paymentToListedCharge(payment({ status, status_detail: detail })).status).toBe(expected);
  });

  it('pages by offset until the total, dropping what lies outside [from, to)', () => {
    const page = mercadoPagoSearchPage(
      { paging: { total: 3, limit: 2, offset: 0 }, results: [payment({ id: 1 }), payment({ id: 2, date_created: '2026-03-02T09:00:00.000-03:00' })] },
      period,
      0,
      2,
    );
    expect(page.charges.map((c) => c.providerPaymentId)).toEqual(['1']);
    expect(decodeMercadoPagoListCursor(page.next)).toBe(2);
    expect(mercadoPagoSearchPage({ paging: { total: 3 }, results: [payment()] }, period, 2, 2).next).toBeNull();
    expect(mercadoPagoSearchPage({ paging: { total: 10 }, results: [] }, period, 4, 2).next).toBeNull();
    expect(decodeMercadoPagoListCursor(null)).toBe(0);
    expect(() => decodeMercadoPagoListCursor('{"offset":"x"}')).toThrow(RangeError);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderError, type ProviderRefund } from '../provider-adapter';
import { mapRefundStatus, refundMercadoPagoPayment, serializeRefundRequest, toProviderRefund, type MercadoPagoRefund, type MercadoPagoRefundStatus } from './mercadopago.refunds';
import { toProviderCharge, type MercadoPagoPayment } from './mercadopago.transformers';
import { providerErrorFor } from './mercadopago.errors';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;

describe('mapRefundStatus', () => {
  it.each<[MercadoPagoRefundStatus, ProviderRefund['status']]>([
    ['in_process', 'pending'],
    ['approved', 'succeeded'],
    ['rejected', 'failed'],
    ['cancelled', 'failed'],
  ])('%s → %s', (status, expected) => {
    expect(mapRefundStatus(status)).toBe(expected);
  });

  it('throws on a status it does not know', () => {
    expect(() => mapRefundStatus('authorized' as MercadoPagoRefundStatus)).toThrow('unhandled value');
  });
});

describe('refund conversions', () => {
  it('reads the documented in_process answer as a pending refund of 2550 cents, keyed by our refund id', () => {
    const refund = toProviderRefund(fixture<MercadoPagoRefund>('refund-pix-in-process.json'), 're_01jk');
    expect(refund).toEqual({
      providerRefundId: '1984215760',
      refundKey: 're_01jk',
      amount: 2550,
      status: 'pending',
      createdAt: new Date('2025-03-10T17:20:03.000Z'),
    });
  });

  it('reports every refund a payment read lists, with no key (the API does not echo it)', () => {
    const charge = toProviderCharge(fixture<MercadoPagoPayment>('payment-pix-partially-refunded.json'));
    expect(charge.status).toBe('paid');
    expect(charge.refunds).toEqual([
      expect.objectContaining({ providerRefundId: '1984215760', amount: 2550, status: 'succeeded' }),
      expect.objectContaining({ providerRefundId: '1984215761', amount: 1000, status: 'failed', failureCode: 'refund_rejected' }),
    ]);
    expect(charge.refunds?.[0]).not.toHaveProperty('refundKey');
  });

  it('leaves refunds out when the payment has none', () => {
    expect(toProviderCharge(fixture<MercadoPagoPayment>('payment-pix-approved.json'))).not.toHaveProperty('refunds');
  });

  it('writes the amount in reais from integer cents', () => {
    expect(serializeRefundRequest(2550)).toBe('{"amount":25.50}');
    expect(serializeRefundRequest(7)).toBe('{"amount":0.07}');
    expect(() => serializeRefundRequest(0)).toThrow(RangeError);
  });

  it('classifies the documented invalid-state refusal as rejected', () => {
    const error = providerErrorFor(400, fixture('error-refund-invalid-state.json'), 'refund');
    expect({ kind: error.kind, code: error.normalizedCode }).toEqual({ kind: 'rejected', code: 'provider_rejected' });
  });
});

describe('refundMercadoPagoPayment', () => {
  const answer = (status: number, body: unknown) => () => Promise.resolve({ status, body });

  it('sends our refund id as X-Idempotency-Key and asks for in-process refunds to be shown', async () => {
    const calls: unknown[][] = [];
    const api = (...args: unknown[]) => {
      calls.push(args);
      return Promise.resolve({ status: 201, body: fixture('refund-pix-in-process.json') });
    };
    await refundMercadoPagoPayment(api, { providerPaymentId: '1327410519', refundId: 're_01jk', amount: 2550 });
    expect(calls).toEqual([
      ['POST', '/v1/payments/1327410519/refunds', 'write', '{"amount":25.50}', { 'x-idempotency-key': 're_01jk', 'x-render-in-process-refunds': 'true' }],
    ]);
  });

  it('refuses a key that answers a refund of another amount', async () => {
    await expect(refundMercadoPagoPayment(answer(201, fixture('refund-pix-in-process.json')), { providerPaymentId: '1', refundId: 're_1', amount: 100 })).rejects.toMatchObject({
      kind: 'rejected',
    });
  });

  it('answers not_found for an id that cannot be a payment, without calling', async () => {
    await expect(refundMercadoPagoPayment(answer(500, {}), { providerPaymentId: 'abc', refundId: 're_1', amount: 100 })).rejects.toBeInstanceOf(ProviderError);
  });
});

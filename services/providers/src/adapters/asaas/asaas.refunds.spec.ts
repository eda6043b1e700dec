import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderRefundStatus } from '../provider-adapter';
import { parseJsonExact } from './asaas.json';
import { mapRefundStatus, refundDescription, refundKeyOf, toProviderRefunds, type AsaasRefund, type AsaasRefundStatus } from './asaas.refunds';

const fixture = <T>(name: string): T => parseJsonExact(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;

describe('mapRefundStatus', () => {
  it.each<[AsaasRefundStatus, ProviderRefundStatus]>([
    ['PENDING', 'pending'],
    ['DONE', 'succeeded'],
    ['CANCELLED', 'failed'],
  ])('%s → %s', (status, expected) => {
    expect(mapRefundStatus(status)).toBe(expected);
  });

  it('throws on a status it does not know', () => {
    expect(() => mapRefundStatus('REFUNDED' as AsaasRefundStatus)).toThrow();
  });
});

describe('our refund id in the description', () => {
  it('writes the reason (or "Reembolso") and the id, and reads the id back', () => {
    expect(refundDescription('re_01abc', 'Cliente desistiu')).toBe('Cliente desistiu [orquestra:re_01abc]');
    expect(refundDescription('re_01abc', '  ')).toBe('Reembolso [orquestra:re_01abc]');
    expect(refundKeyOf(refundDescription('re_01abc', 'x [orquestra:re_other] y'))).toBe('re_01abc');
    expect(refundKeyOf('Overpayment')).toBeUndefined();
    expect(refundKeyOf(null)).toBeUndefined();
  });

  it('keeps the description within Asaas limits for a long reason', () => {
    expect(refundDescription('re_01jnx3s2q8k7w5r4t3y2u1i0o9', 'x'.repeat(2000)).length).toBeLessThanOrEqual(500);
  });
});

describe('toProviderRefunds', () => {
  const payment = fixture<{ id: string; refunds: AsaasRefund[] }>('payment-received-partially-refunded.json');

  it('reads the documented refunds: exact cents, ours keyed, dashboard ones without a key', () => {
    const refunds = toProviderRefunds(payment.id, payment.refunds);
    expect(refunds).toEqual([
      expect.objectContaining({ refundKey: 're_01jnx3s2q8k7w5r4t3y2u1i0o9', amount: 2550, status: 'succeeded', reason: 'Item devolvido', createdAt: new Date('2025-03-10T17:20:03.000Z') }),
      expect.objectContaining({ amount: 200, status: 'pending', reason: 'Overpayment' }),
    ]);
    expect(refunds[1]).not.toHaveProperty('refundKey');
  });

  it('names each refund by a stable digest, distinct for identical refunds', () => {
    const twice = [payment.refunds[1] as AsaasRefund, payment.refunds[1] as AsaasRefund];
    const first = toProviderRefunds(payment.id, twice).map((r) => r.providerRefundId);
    const again = toProviderRefunds(payment.id, twice).map((r) => r.providerRefundId);
    expect(first).toEqual(again);
    expect(new Set(first).size).toBe(2);
    expect(first[0]).toMatch(/^asaas_rf_[0-9a-f]{20}$/);
  });

  it('reports a cancelled estorno as failed', () => {
    const list = fixture<{ data: AsaasRefund[] }>('refunds-list.json');
    expect(toProviderRefunds('pay_1', list.data)).toEqual([expect.objectContaining({ amount: 200, status: 'failed', failureCode: 'refund_cancelled' })]);
  });

  it('answers none for a payment without refunds (`refunds: null`)', () => {
    expect(toProviderRefunds('pay_1', null)).toEqual([]);
  });
});

/**
 * Splits in Asaas's form (asaas.transformers.ts): integer cents → `fixedValue` in exact reais on the
 * wire, never through a float; the comparison that stops a repeated key with another split.
 */
import type { CreateChargeInput } from '../provider-adapter';
import { parseJsonExact, stringifyExact } from './asaas.json';
import { buildPaymentRequest, buildSplit, sameSplit, type AsaasPayment } from './asaas.transformers';

const input = (splits?: CreateChargeInput['splits']): CreateChargeInput => ({
  paymentId: 'pay_01',
  method: 'pix',
  amount: 10_000,
  customer: { name: 'Maria Souza', document: '52998224725' },
  expiresInSeconds: 3_600,
  metadata: {},
  idempotencyKey: 'pay_01:acc_01',
  ...(splits ? { splits } : {}),
});

describe('Asaas split request', () => {
  it.each([
    [1, '0.01'],
    [10, '0.10'],
    [29, '0.29'],
    [1_001, '10.01'],
    [3_333, '33.33'],
    [123_456_789_01, '123456789.01'],
  ])('%i cents is fixedValue %s exactly', (cents, reais) => {
    expect(stringifyExact(buildSplit([{ subaccountId: 'sub_1', splitTarget: 'w-1', amount: cents }]))).toBe(`[{"walletId":"w-1","fixedValue":${reais}}]`);
  });

  it('adds split to the payment only when there are parts, every part fixed', () => {
    const at = new Date('2025-03-11T12:00:00Z');
    expect(stringifyExact(buildPaymentRequest(input(), 'cus_1', at))).not.toContain('split');
    expect(stringifyExact(buildPaymentRequest(input([]), 'cus_1', at))).not.toContain('split');
    const body = stringifyExact(buildPaymentRequest(input([{ subaccountId: 'sub_1', splitTarget: 'w-1', amount: 2_999 }, { subaccountId: 'sub_2', splitTarget: 'w-2', amount: 1 }]), 'cus_1', at));
    expect(body).toContain('"split":[{"walletId":"w-1","fixedValue":29.99},{"walletId":"w-2","fixedValue":0.01}]');
    expect(body).not.toContain('percentualValue');
  });

  it('refuses a part that is not a positive integer of cents', () => {
    expect(() => buildSplit([{ subaccountId: 'sub_1', splitTarget: 'w-1', amount: 0 }])).toThrow();
    expect(() => buildSplit([{ subaccountId: 'sub_1', splitTarget: 'w-1', amount: 10.5 }])).toThrow();
  });
});

describe('Asaas split of a held charge', () => {
  const held = (json: string) => parseJsonExact(json) as Pick<AsaasPayment, 'split'>;

  it('matches the parts asked for, in any order, by wallet and exact cents', () => {
    const payment = held('{"split":[{"walletId":"w-2","fixedValue":0.1,"status":"PENDING"},{"walletId":"w-1","fixedValue":33.33,"status":"PENDING"}]}');
    expect(sameSplit(payment, input([{ subaccountId: 'a', splitTarget: 'w-1', amount: 3_333 }, { subaccountId: 'b', splitTarget: 'w-2', amount: 10 }]))).toBe(true);
    expect(sameSplit(payment, input([{ subaccountId: 'a', splitTarget: 'w-1', amount: 3_334 }, { subaccountId: 'b', splitTarget: 'w-2', amount: 10 }]))).toBe(false);
    expect(sameSplit(payment, input([{ subaccountId: 'a', splitTarget: 'w-1', amount: 3_333 }]))).toBe(false);
  });

  it('a charge without split matches a request without parts only', () => {
    expect(sameSplit(held('{"split":null}'), input())).toBe(true);
    expect(sameSplit(held('{}'), input([]))).toBe(true);
    expect(sameSplit(held('{}'), input([{ subaccountId: 'a', splitTarget: 'w-1', amount: 1 }]))).toBe(false);
  });
});

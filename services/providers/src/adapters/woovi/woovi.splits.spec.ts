/**
 * Splits and withdrawals in Woovi's form (woovi.transformers.ts, woovi.withdrawals.ts): parts in
 * integer cents as Woovi takes them, the comparison that stops a repeated correlationID with another
 * split, a split refusal naming `splits`, and the whole-balance withdrawal answer.
 */
import type { CreateChargeInput } from '../provider-adapter';
import { buildChargeRequest, buildSplits, sameSplits, splitRefusal } from './woovi.transformers';
import { toWithdrawal } from './woovi.withdrawals';

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

describe('Woovi split request', () => {
  it('sends each part as the same cents to the subaccount Pix key, SPLIT_SUB_ACCOUNT', () => {
    expect(buildSplits([{ subaccountId: 'sub_1', splitTarget: 'ana@exemplo.com', amount: 1 }, { subaccountId: 'sub_2', splitTarget: '+5511988451155', amount: 3_333 }])).toEqual([
      { value: 1, pixKey: 'ana@exemplo.com', splitType: 'SPLIT_SUB_ACCOUNT' },
      { value: 3_333, pixKey: '+5511988451155', splitType: 'SPLIT_SUB_ACCOUNT' },
    ]);
  });

  it('adds splits to the charge only when there are parts', () => {
    expect(buildChargeRequest(input())).not.toHaveProperty('splits');
    expect(buildChargeRequest(input([]))).not.toHaveProperty('splits');
    expect(buildChargeRequest(input([{ subaccountId: 'sub_1', splitTarget: 'ana@exemplo.com', amount: 2_500 }])).splits).toEqual([{ value: 2_500, pixKey: 'ana@exemplo.com', splitType: 'SPLIT_SUB_ACCOUNT' }]);
  });

  it('refuses a part that is not a positive integer of cents', () => {
    expect(() => buildSplits([{ subaccountId: 'sub_1', splitTarget: 'k', amount: 0 }])).toThrow(RangeError);
    expect(() => buildSplits([{ subaccountId: 'sub_1', splitTarget: 'k', amount: 1.5 }])).toThrow(RangeError);
  });
});

describe('Woovi split of a held charge', () => {
  it('compares parts by key and cents in any order; a charge answered without splits is no evidence', () => {
    const asked = input([{ subaccountId: 'a', splitTarget: 'ana@exemplo.com', amount: 10 }, { subaccountId: 'b', splitTarget: 'bia@exemplo.com', amount: 20 }]);
    expect(sameSplits({ splits: [{ value: 20, pixKey: 'bia@exemplo.com' }, { value: 10, pixKey: 'ana@exemplo.com' }] }, asked)).toBe(true);
    expect(sameSplits({ splits: [{ value: 21, pixKey: 'bia@exemplo.com' }, { value: 10, pixKey: 'ana@exemplo.com' }] }, asked)).toBe(false);
    expect(sameSplits({ splits: [] }, asked)).toBe(false);
    expect(sameSplits({}, asked)).toBe(true);
  });

  it('a 400 about the split names splits; other refusals are left to the error table', () => {
    expect(splitRefusal(400, { error: 'Subconta não encontrada para a chave Pix x@y.com' }, true)).toMatchObject({ kind: 'rejected', normalizedCode: 'provider_rejected', param: { name: 'splits' } });
    expect(splitRefusal(400, { error: 'Subconta não encontrada para a chave Pix x@y.com' }, false)).toBeUndefined();
    expect(splitRefusal(400, { error: 'value é obrigatório' }, true)).toBeUndefined();
  });
});

describe('Woovi withdrawal answer', () => {
  it('is the whole balance, paid once answered, under Woovi correlationID', () => {
    expect(toWithdrawal({ transaction: { status: 'CREATED', value: 7_000, correlationID: 'w1', destinationAlias: 'ana@exemplo.com' } }, 'po_1')).toEqual({
      providerTransferId: 'w1',
      payoutId: 'po_1',
      status: 'paid',
      providerStatus: 'CREATED',
      amount: 7_000,
      wholeBalance: true,
      paidAt: expect.any(Date),
    });
  });

  it('a failed or denied one is failed; an answer naming no transaction is ambiguous', () => {
    expect(toWithdrawal({ transaction: { status: 'FAILED', value: 7_000, correlationID: 'w1' } }, 'po_1')).toMatchObject({ status: 'failed', failureCode: 'transfer_failed' });
    // A balance emptied between our read and the withdraw: nothing left, so no paid payout.
    expect(toWithdrawal({ transaction: { status: 'CREATED', value: 0, correlationID: 'w2' } }, 'po_2')).toMatchObject({ status: 'failed', amount: 0, wholeBalance: true, failureCode: 'insufficient_balance' });
    expect(() => toWithdrawal({}, 'po_1')).toThrow(expect.objectContaining({ kind: 'ambiguous' }));
    expect(() => toWithdrawal({ transaction: { correlationID: 'w1', value: 1.5 } }, 'po_1')).toThrow(expect.objectContaining({ kind: 'ambiguous' }));
  });
});

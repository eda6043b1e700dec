import { mapWithdrawalStatus, toProviderTransfer } from './pagarme.withdrawals';

describe('Pagar.me withdrawals', () => {
  it('maps transfer statuses, an unknown one as still processing', () => {
    expect(['pending_transfer', 'processing', 'transferred', 'failed', 'canceled', 'something_new'].map(mapWithdrawalStatus)).toEqual([
      'pending',
      'processing',
      'paid',
      'failed',
      'canceled',
      'processing',
    ]);
  });

  it('reads a transferred withdrawal with its fee and funding date, our payout id from metadata', () => {
    expect(
      toProviderTransfer({ id: 'tran_1', amount: 10_000, fee: 367, status: 'transferred', metadata: { payout_id: 'po_1' }, funding_date: '2026-03-10T12:00:00.000Z' }, 'po_other'),
    ).toEqual({ providerTransferId: 'tran_1', payoutId: 'po_1', status: 'paid', providerStatus: 'transferred', amount: 10_000, fee: 367, paidAt: new Date('2026-03-10T12:00:00.000Z') });
  });

  it('reads a failed one with its reason in Portuguese, our id when the metadata is empty', () => {
    expect(toProviderTransfer({ id: 'tran_2', amount: 500, status: 'failed', metadata: null, failure_reason: 'Conta inválida' }, 'po_2')).toMatchObject({
      payoutId: 'po_2',
      status: 'failed',
      failureCode: 'transfer_failed',
      failureReason: 'Pagar.me: Conta inválida',
    });
  });
});

import { payoutOfEvent, toProviderTransfer, type StripePayout } from './stripe.payouts';

const payout = (overrides: Partial<StripePayout> = {}): StripePayout => ({
  id: 'po_1Abc',
  object: 'payout',
  amount: 5_000,
  status: 'pending',
  arrival_date: 1_795_000_000,
  metadata: { orquestra_payout_id: 'po_01jf3k8v9x2m4n6p8q0r2s4t6v' },
  ...overrides,
});

describe('Stripe payouts: wire conversions', () => {
  it.each([
    ['pending', 'processing'],
    ['in_transit', 'processing'],
    ['paid', 'paid'],
    ['failed', 'failed'],
    ['canceled', 'canceled'],
  ] as const)('%s is %s', (providerStatus, status) => {
    const transfer = toProviderTransfer(payout({ status: providerStatus, failure_code: 'account_closed', failure_message: 'The bank account has been closed' }), 'ignored');
    expect(transfer).toMatchObject({ providerTransferId: 'po_1Abc', payoutId: 'po_01jf3k8v9x2m4n6p8q0r2s4t6v', status, providerStatus, amount: 5_000 });
    expect(transfer.paidAt?.toISOString()).toBe(status === 'paid' ? new Date(1_795_000_000_000).toISOString() : undefined);
    expect(transfer.failureCode).toBe(status === 'failed' ? 'account_closed' : undefined);
    expect(transfer.failureReason).toBe(status === 'failed' ? 'A Stripe não concluiu o repasse: The bank account has been closed' : undefined);
  });

  it('names the payout of a payout.* event, with our id when its metadata has it; nothing for other events', () => {
    const event = (type: string, object: unknown) => Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', type, data: { object } }));
    expect(payoutOfEvent(event('payout.paid', payout()))).toEqual([{ providerTransferId: 'po_1Abc', payoutId: 'po_01jf3k8v9x2m4n6p8q0r2s4t6v' }]);
    expect(payoutOfEvent(event('payout.failed', payout({ metadata: {} })))).toEqual([{ providerTransferId: 'po_1Abc' }]);
    expect(payoutOfEvent(event('payment_intent.succeeded', { object: 'payment_intent', id: 'pi_1' }))).toEqual([]);
  });
});

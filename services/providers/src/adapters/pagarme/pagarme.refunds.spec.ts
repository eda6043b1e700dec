import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RefundNotSupportedError, type ProviderRefund } from '../provider-adapter';
import { buildCancelRequest, mapRefundStatus, refundPagarmeCharge, refundsOfTransactions, type PagarmeRefundTransactionStatus, type PagarmeTransaction } from './pagarme.refunds';
import { toProviderCharge, type PagarmeCharge } from './pagarme.transformers';
import { parsePagarmeWebhookBody } from './pagarme.webhook';

const fixturePath = (name: string) => join(__dirname, 'fixtures', name);
const fixture = <T>(name: string): T => JSON.parse(readFileSync(fixturePath(name), 'utf8')) as T;
const transactions = () => fixture<{ data: PagarmeTransaction[] }>('charge-transactions-refunds.json').data;

describe('mapRefundStatus', () => {
  it.each<[PagarmeRefundTransactionStatus, ProviderRefund['status']]>([
    ['pending_refund', 'pending'],
    ['refunded', 'succeeded'],
    ['with_error', 'failed'],
    ['failed', 'failed'],
  ])('%s → %s', (status, expected) => {
    expect(mapRefundStatus(status)).toBe(expected);
  });

  it('throws on a status it does not know', () => {
    expect(() => mapRefundStatus('paid' as PagarmeRefundTransactionStatus)).toThrow('unhandled value');
  });
});

describe('refund conversions', () => {
  it('reads the cancel operations of a charge (not the payment), ours keyed by operation_reference', () => {
    expect(refundsOfTransactions(transactions())).toEqual([
      { providerRefundId: 'tran_Qm3Lx8Rk2Vp7Nc4T', refundKey: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', amount: 50000, status: 'succeeded', createdAt: new Date('2025-03-11T09:12:30Z') },
      { providerRefundId: 'tran_Zt6Yw1Bn9Hs5Kd2F', amount: 10000, status: 'pending', createdAt: new Date('2025-03-11T10:00:00Z') },
    ]);
  });

  it('keeps a partially refunded charge paid, and a fully refunded one paid (not canceled)', () => {
    const partial = fixture<PagarmeCharge>('charge-pix-partial-canceled.json');
    expect(toProviderCharge(partial)).toMatchObject({ status: 'paid', amountPaid: 199007 });
    expect(toProviderCharge({ ...partial, status: 'canceled', canceled_amount: 199007 })).toMatchObject({ status: 'paid', amountPaid: 199007 });
    expect(toProviderCharge(fixture<PagarmeCharge>('charge-pix-canceled.json')).status).toBe('canceled');
  });

  it('names the charge of a charge.partial_canceled webhook', () => {
    expect(parsePagarmeWebhookBody(readFileSync(fixturePath('webhook-charge-partial-canceled.json')))).toMatchObject({ type: 'charge.partial_canceled', chargeIds: ['ch_K2rJ5nlHwTE4qRDP'] });
  });

  it('writes the cancel body in centavos with our id as operation_reference', () => {
    expect(buildCancelRequest({ providerPaymentId: 'ch_1', refundId: 're_1', amount: 2500 })).toEqual({ amount: 2500, operation_reference: 're_1' });
    expect(() => buildCancelRequest({ providerPaymentId: 'ch_1', refundId: 're_1', amount: 0 })).toThrow(RangeError);
  });
});

describe('refundPagarmeCharge', () => {
  const paid = fixture<PagarmeCharge>('charge-pix-paid.json');

  it('reads, lists, then DELETEs with our id as idempotency key, and answers our operation', async () => {
    const calls: unknown[][] = [];
    let deleted = false;
    const api = (...args: unknown[]) => {
      calls.push(args);
      if (args[0] === 'DELETE') {
        deleted = true;
        return Promise.resolve({ status: 200, body: fixture('charge-pix-partial-canceled.json') });
      }
      if (String(args[1]).includes('/transactions')) return Promise.resolve({ status: 200, body: { data: deleted ? transactions() : transactions().slice(0, 1) } });
      return Promise.resolve({ status: 200, body: paid });
    };
    const refund = await refundPagarmeCharge(api, { providerPaymentId: 'ch_K2rJ5nlHwTE4qRDP', refundId: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', amount: 50000 });
    expect(refund).toMatchObject({ providerRefundId: 'tran_Qm3Lx8Rk2Vp7Nc4T', refundKey: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', status: 'succeeded' });
    expect(calls.find((c) => c[0] === 'DELETE')).toEqual([
      'DELETE', '/charges/ch_K2rJ5nlHwTE4qRDP', 'write', { amount: 50000, operation_reference: 're_01jnx4a8k2m5p7r9t1v3x5z7b9' }, { 'idempotency-key': 're_01jnx4a8k2m5p7r9t1v3x5z7b9' },
    ]);
  });

  it('refuses a paid boleto without calling DELETE (bank account needed): refund_not_supported', async () => {
    const api = jest.fn((_m: string, path: string) => Promise.resolve({ status: 200, body: path.includes('/transactions') ? { data: [] } : { ...paid, payment_method: 'boleto' } }));
    await expect(refundPagarmeCharge(api, { providerPaymentId: 'ch_1', refundId: 're_1', amount: 100 })).rejects.toBeInstanceOf(RefundNotSupportedError);
    expect(api.mock.calls.some((c) => c[0] === 'DELETE')).toBe(false);
  });

  it('names the refund by the cancel operation in the DELETE answer when the list does not echo our id (never sent twice)', async () => {
    const cancel = transactions().find((t) => t.operation_type === 'cancel')!;
    const withoutKey = { ...cancel, metadata: {} };
    const api = (method: string, path: string) =>
      Promise.resolve({
        status: 200,
        body: path.includes('/transactions') ? { data: [] } : method === 'DELETE' ? { ...paid, last_transaction: withoutKey } : paid,
      });
    const refund = await refundPagarmeCharge(api, { providerPaymentId: 'ch_1', refundId: 're_1', amount: cancel.amount });
    expect(refund).toMatchObject({ providerRefundId: cancel.id, refundKey: 're_1', amount: cancel.amount });
  });

  it('answers ambiguous when Pagar.me accepted but no operation carries our id', async () => {
    const api = (method: string, path: string) => Promise.resolve({ status: 200, body: path.includes('/transactions') ? { data: [] } : method === 'DELETE' ? paid : paid });
    await expect(refundPagarmeCharge(api, { providerPaymentId: 'ch_1', refundId: 're_1', amount: 100 })).rejects.toMatchObject({ kind: 'ambiguous' });
  });
});

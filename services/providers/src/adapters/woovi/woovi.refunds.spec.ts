import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderRefundStatus } from '../provider-adapter';
import { mapRefundStatus, refundCorrelationIdFor, toProviderRefund, type WooviRefund, type WooviRefundStatus } from './woovi.refunds';
import { parseWooviWebhookBody } from './woovi.webhook';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;

describe('mapRefundStatus', () => {
  it.each<[WooviRefundStatus, ProviderRefundStatus]>([
    ['IN_PROCESSING', 'pending'],
    ['CONFIRMED', 'succeeded'],
    ['REJECTED', 'failed'],
  ])('%s → %s', (status, expected) => {
    expect(mapRefundStatus(status)).toBe(expected);
  });

  it('throws on a status it does not know', () => {
    expect(() => mapRefundStatus('COMPLETED' as WooviRefundStatus)).toThrow();
  });
});

describe('refund conversions', () => {
  it('keeps our refund id as the correlationID, replacing what Woovi would not take', () => {
    expect(refundCorrelationIdFor('re_01jnx3s2q8k7w5r4t3y2u1i0o9')).toBe('re_01jnx3s2q8k7w5r4t3y2u1i0o9');
    expect(refundCorrelationIdFor('re 1/2')).toBe('re-1-2');
    expect(() => refundCorrelationIdFor('')).toThrow(RangeError);
  });

  it('reads the documented create answer: cents as they are, keyed by the correlationID', () => {
    const { refund } = fixture<{ refund: WooviRefund }>('refund-create-response.json');
    expect(toProviderRefund(refund)).toEqual({
      providerRefundId: 're_01jnx3s2q8k7w5r4t3y2u1i0o9',
      refundKey: 're_01jnx3s2q8k7w5r4t3y2u1i0o9',
      amount: 2550,
      status: 'pending',
      reason: 'Item devolvido',
      createdAt: new Date('2025-03-10T17:20:03.882Z'),
    });
  });

  it('reads the documented list of a charge’s refunds', () => {
    const { refunds } = fixture<{ refunds: WooviRefund[] }>('charge-refunds.json');
    expect(refunds.map(toProviderRefund)).toEqual([
      expect.objectContaining({ providerRefundId: 'aafee9f5-94b3-4e3d-ab6a-416d0a1218cb', amount: 100, status: 'pending' }),
      expect.objectContaining({ providerRefundId: '589a378e-ab45-4f30-bd4d-4496c60f88cf', amount: 40, status: 'succeeded', reason: 'Comentário do reembolso' }),
    ]);
  });

  it('names the charge of the documented refund webhook, with a key per refund Pix', () => {
    const raw = readFileSync(join(__dirname, 'fixtures', 'webhook-transaction-refund-received.json'));
    const parsed = parseWooviWebhookBody(raw);
    expect(parsed).toMatchObject({ kind: 'charge', event: 'OPENPIX:TRANSACTION_REFUND_RECEIVED', correlationIDs: ['5e1f0740-4a18-4030-a5a7-686d3d8ec419'] });
    const other = parseWooviWebhookBody(Buffer.from(raw.toString().replace('D2311444720220916140342abcdefghi', 'D2311444720220916140342zzzzzzzzz')));
    expect((other as { eventKey: string }).eventKey).not.toBe((parsed as { eventKey: string }).eventKey);
  });
});

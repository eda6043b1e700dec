import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderRefund } from '../provider-adapter';
import { buildRefundParams, mapRefundStatus, refundStripePaymentIntent, toProviderRefund, type StripeRefund, type StripeRefundStatus } from './stripe.refunds';
import { parseStripeEvent } from './stripe.webhook';

const fixturePath = (name: string) => join(__dirname, 'fixtures', name);
const fixture = <T>(name: string): T => JSON.parse(readFileSync(fixturePath(name), 'utf8')) as T;

describe('mapRefundStatus', () => {
  it.each<[StripeRefundStatus, ProviderRefund['status']]>([
    ['pending', 'pending'],
    ['requires_action', 'pending'],
    ['succeeded', 'succeeded'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
  ])('%s → %s', (status, expected) => {
    expect(mapRefundStatus(status)).toBe(expected);
  });

  it('throws on a status it does not know', () => {
    expect(() => mapRefundStatus('processing' as StripeRefundStatus)).toThrow('unhandled value');
  });
});

describe('refund conversions', () => {
  it('reads a succeeded card refund with our id and reason from metadata', () => {
    expect(toProviderRefund(fixture<StripeRefund>('refund-card-succeeded.json'))).toEqual({
      providerRefundId: 're_3P5ktxEzVBJFlm8c1aB2cD3e',
      refundKey: 're_01jnx4a8k2m5p7r9t1v3x5z7b9',
      amount: 2500,
      status: 'succeeded',
      reason: 'Cliente desistiu',
      createdAt: new Date(1741619403 * 1000),
    });
  });

  it('reads a boleto refund waiting for bank details as pending, without a key (made in the dashboard)', () => {
    const refund = toProviderRefund(fixture<StripeRefund>('refund-boleto-requires-action.json'));
    expect(refund).toMatchObject({ providerRefundId: 're_3P5lBoEzVBJFlm8c0kL9mN1o', amount: 5000, status: 'pending', reason: 'requested_by_customer' });
    expect(refund).not.toHaveProperty('refundKey');
  });

  it('reads a canceled boleto refund as failed with a reason', () => {
    const refund = toProviderRefund({ ...fixture<StripeRefund>('refund-boleto-requires-action.json'), status: 'canceled' });
    expect(refund).toMatchObject({ status: 'failed', failureCode: 'refund_canceled' });
  });

  it('builds the form: centavos, our id in metadata, Stripe reason only for its own values', () => {
    expect(buildRefundParams({ providerPaymentId: 'pi_1', refundId: 're_1', amount: 2500, reason: 'Cliente desistiu' })).toEqual({
      payment_intent: 'pi_1',
      amount: 2500,
      metadata: { orquestra_refund_id: 're_1', orquestra_reason: 'Cliente desistiu' },
    });
    expect(buildRefundParams({ providerPaymentId: 'pi_1', refundId: 're_1', amount: 1, reason: 'duplicate' })).toMatchObject({ reason: 'duplicate' });
    expect(() => buildRefundParams({ providerPaymentId: 'pi_1', refundId: 're_1', amount: 0 })).toThrow(RangeError);
  });

  it('finds the PaymentIntent of charge.refunded and refund.updated events', () => {
    expect(parseStripeEvent(readFileSync(fixturePath('event-charge-refunded.json')))).toMatchObject({ type: 'charge.refunded', paymentIntentIds: ['pi_3P5ktxEzVBJFlm8c13Qzn9bX'] });
    expect(parseStripeEvent(readFileSync(fixturePath('event-refund-updated.json')))).toMatchObject({ type: 'refund.updated', paymentIntentIds: ['pi_3P5lBoEzVBJFlm8c0uV4wX5y'] });
  });
});

describe('refundStripePaymentIntent', () => {
  const listing = (data: unknown[]) => ({ status: 200, body: { object: 'list', data, has_more: false } });

  it('lists first, reads the intent, then creates with our refund id as Idempotency-Key', async () => {
    const calls: unknown[][] = [];
    const api = (...args: unknown[]) => {
      calls.push(args);
      return Promise.resolve(args[0] === 'GET' ? listing([]) : { status: 200, body: fixture('refund-card-succeeded.json') });
    };
    const refund = await refundStripePaymentIntent(api, { providerPaymentId: 'pi_3P5ktxEzVBJFlm8c13Qzn9bX', refundId: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', amount: 2500 });
    expect(refund.status).toBe('succeeded');
    expect(calls).toEqual([
      ['GET', '/v1/refunds', 'read', { payment_intent: 'pi_3P5ktxEzVBJFlm8c13Qzn9bX', limit: 100 }],
      // Not a destination charge (no transfer_data): nothing to reverse.
      ['GET', '/v1/payment_intents/pi_3P5ktxEzVBJFlm8c13Qzn9bX', 'read'],
      ['POST', '/v1/refunds', 'write', { payment_intent: 'pi_3P5ktxEzVBJFlm8c13Qzn9bX', amount: 2500, metadata: { orquestra_refund_id: 're_01jnx4a8k2m5p7r9t1v3x5z7b9' } }, 're_01jnx4a8k2m5p7r9t1v3x5z7b9'],
    ]);
  });

  it('reverses the transfer of a destination charge (reverse_transfer)', async () => {
    const posted: unknown[] = [];
    const api = (method: string, path: string, _operation: string, params?: unknown) => {
      if (method === 'POST') posted.push(params);
      if (path.startsWith('/v1/payment_intents/')) return Promise.resolve({ status: 200, body: { id: 'pi_1', transfer_data: { destination: 'acct_1Seller', amount: 3000 } } });
      return Promise.resolve(method === 'GET' ? listing([]) : { status: 200, body: fixture('refund-card-succeeded.json') });
    };
    await refundStripePaymentIntent(api, { providerPaymentId: 'pi_1', refundId: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', amount: 2500 });
    expect(posted).toEqual([expect.objectContaining({ payment_intent: 'pi_1', reverse_transfer: true })]);
  });

  it('answers a refund already carrying our id without creating another (past Stripe’s 24 h keys)', async () => {
    const api = jest.fn((method: string) => Promise.resolve(method === 'GET' ? listing([fixture('refund-card-succeeded.json')]) : { status: 500, body: {} }));
    const refund = await refundStripePaymentIntent(api, { providerPaymentId: 'pi_x', refundId: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', amount: 2500 });
    expect(refund.providerRefundId).toBe('re_3P5ktxEzVBJFlm8c1aB2cD3e');
    expect(api).toHaveBeenCalledTimes(1);
  });

  it('refuses an id that names a refund of another amount, and classifies over-refunds as rejected', async () => {
    const found = (method: string) => Promise.resolve(method === 'GET' ? listing([fixture('refund-card-succeeded.json')]) : listing([]));
    await expect(refundStripePaymentIntent(found, { providerPaymentId: 'pi_x', refundId: 're_01jnx4a8k2m5p7r9t1v3x5z7b9', amount: 100 })).rejects.toMatchObject({ kind: 'rejected' });
    const over = (method: string) =>
      Promise.resolve(method === 'GET' ? listing([]) : { status: 400, body: { error: { type: 'invalid_request_error', param: 'amount', message: 'Refund amount (R$30.01) is greater than unrefunded amount on charge (R$30.00)' } } });
    await expect(refundStripePaymentIntent(over, { providerPaymentId: 'pi_x', refundId: 're_2', amount: 3001 })).rejects.toMatchObject({ kind: 'rejected', normalizedCode: 'provider_rejected', httpStatus: 400 });
  });
});

/**
 * The mapping of Stripe's PaymentIntent list to ListedCharge and the starting_after cursor
 * (stripe.listing.ts), over a fake GET answering written pages; the real list is exercised in
 * stripe.listing.contract.spec.ts against the emulator.
 */
import { encodeForm } from './stripe.form-encoding';
import { ProviderError } from '../provider-adapter';
import { listedChargeOfIntent, listStripeCharges } from './stripe.listing';

const T = Date.parse('2026-03-10T10:00:00Z') / 1000;
const intent = (overrides: Record<string, unknown> = {}, charge: Record<string, unknown> | null = {}) => ({
  id: 'pi_1',
  object: 'payment_intent',
  amount: 1990,
  amount_received: 1990,
  currency: 'brl',
  status: 'succeeded',
  created: T,
  canceled_at: null,
  cancellation_reason: null,
  last_payment_error: null,
  metadata: { orquestra_payment_id: 'pay_abc' },
  next_action: null,
  payment_method_types: ['pix'],
  latest_charge: charge === null ? null : { id: 'ch_1', object: 'charge', amount: 1990, created: T, status: 'succeeded', amount_refunded: 0, balance_transaction: { id: 'txn_1', object: 'balance_transaction', amount: 1990, fee: 24, net: 1966 }, ...charge },
  ...overrides,
});

describe('listedChargeOfIntent', () => {
  it('maps a succeeded Pix intent: id, paid, amount, fee of the balance transaction, refunds of the charge, our payment id as reference', () => {
    expect(listedChargeOfIntent(intent({}, { amount_refunded: 500 }) as never)).toEqual({
      providerPaymentId: 'pi_1',
      status: 'paid',
      amount: 1990,
      amountRefunded: 500,
      fee: 24,
      method: 'pix',
      createdAt: new Date(T * 1000),
      reference: 'pay_abc',
    });
  });

  it('has no fee or refunds without a succeeded charge, maps statuses through the adapter’s mapping, no reference without our metadata', () => {
    expect(listedChargeOfIntent(intent({ status: 'requires_action', amount_received: 0 }, null) as never)).toMatchObject({ status: 'pending', fee: null, amountRefunded: 0 });
    expect(listedChargeOfIntent(intent({ status: 'canceled' }, null) as never).status).toBe('canceled');
    expect(listedChargeOfIntent(intent({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' }, payment_method_types: ['card'] }, { status: 'failed', balance_transaction: null }) as never)).toMatchObject({ status: 'failed', method: 'card', fee: null });
    expect(listedChargeOfIntent(intent({ latest_charge: 'ch_1' }) as never)).toMatchObject({ fee: null, amountRefunded: 0 });
    expect(listedChargeOfIntent(intent({ metadata: {} }) as never).reference).toBeNull();
    expect(() => listedChargeOfIntent(intent({ amount: 19.9 }) as never)).toThrow(RangeError);
  });
});

describe('listStripeCharges', () => {
  const period = { from: new Date('2026-03-10T00:00:00Z'), to: new Date('2026-03-11T00:00:00Z') };

  it('asks for created[gte]/created[lt], the expanded charge and starting_after, and gives the last id as cursor while has_more', async () => {
    const asked: string[] = [];
    const get = (path: string, params: Record<string, unknown>) => {
      asked.push(`${path}?${encodeForm(params as never)}`);
      return Promise.resolve({ status: 200, body: asked.length === 1 ? { object: 'list', has_more: true, data: [intent(), intent({ id: 'pi_2' })] } : { object: 'list', has_more: false, data: [intent({ id: 'pi_3' })] }, headers: {} } as never);
    };
    const first = await listStripeCharges(get, period, null, 2);
    expect(first.charges.map((c) => c.providerPaymentId)).toEqual(['pi_1', 'pi_2']);
    expect(first.next).toBe(JSON.stringify({ starting_after: 'pi_2' }));
    const second = await listStripeCharges(get, period, first.next, 2);
    expect(second).toMatchObject({ charges: [{ providerPaymentId: 'pi_3' }], next: null });
    expect(decodeURIComponent(asked[1]!)).toBe(`/v1/payment_intents?created[gte]=${Date.parse('2026-03-10T00:00:00Z') / 1000}&created[lt]=${Date.parse('2026-03-11T00:00:00Z') / 1000}&limit=2&expand[]=data.latest_charge.balance_transaction&starting_after=pi_2`);
  });

  it('refuses a cursor it did not give and reports Stripe’s refusal', async () => {
    const refused = () => Promise.resolve({ status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }, headers: {} } as never);
    await expect(listStripeCharges(refused, period, '{"offset":3}')).rejects.toBeInstanceOf(ProviderError);
    await expect(listStripeCharges(refused, period, null)).rejects.toMatchObject({ kind: 'invalid_credentials' });
  });
});

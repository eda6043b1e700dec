import { common } from '@orquestra/contracts';
import { CreateSubscriptionSchema } from '../schemas/create-subscription.schema';
import { SubscriptionDetailSchema, SubscriptionListSchema, SubscriptionSchema } from '../schemas/subscription.response.schema';
import { protoPayment, protoSubscription } from '../testing/fixtures';
import { toPaymentJson } from './payment.mapper';
import {
  toCreateSubscriptionRequest,
  toSubscriptionDetailJson,
  toSubscriptionJson,
  toSubscriptionListJson,
} from './subscription.mapper';

const CALLER: common.Caller = { merchant_id: 'acct_1', key_id: 'key_full', mode: common.Mode.MODE_TEST, restricted: false, request_id: 'req_1' };

describe('subscription mapper', () => {
  it('maps a pending subscription to the public shape, with its approval and without cycles', () => {
    const shown = toSubscriptionJson(protoSubscription());
    expect(shown).toEqual({
      id: 'sub_01jsub',
      object: 'subscription',
      mode: 'test',
      status: 'pending',
      amount: 2990,
      first_amount: 2990,
      currency: 'BRL',
      frequency: 'monthly',
      start_date: '2026-12-01',
      end_date: null,
      next_charge_date: '2027-01-04',
      description: 'Plano mensal',
      retry: true,
      provider: 'efi',
      provider_account_id: 'pa_01jxyz',
      approval: { qr_code: '00020101021226830014br.gov.bcb.pix.rec', qr_code_base64: 'iVBORw0KGgo=', url: null },
      customer: { id: 'cus_01jcus', name: 'Maria da Silva', document: '52998224725' },
      metadata: { plan: 'pro' },
      tracking: { utm_source: 'facebook' },
      created_at: '2026-12-01T12:00:00.000Z',
      updated_at: '2026-12-01T12:00:00.000Z',
    });
    expect(SubscriptionSchema.strict().parse(shown)).toEqual(shown);
  });

  it('shows a variable amount and an active subscription (no approval) as null', () => {
    const variable = protoSubscription({ status: 'active', approval: undefined, end_date: '2027-11-30' });
    delete variable.amount;
    expect(toSubscriptionJson(variable)).toMatchObject({ amount: null, approval: null, status: 'active', end_date: '2027-11-30' });
  });

  it('shows the cycles of one subscription as every payment answer shows a payment', () => {
    const cycle = protoPayment({ id: 'pay_cycle1', status: 'succeeded' });
    const detail = toSubscriptionDetailJson(protoSubscription({ payments: [cycle] }));
    expect(detail.payments).toEqual([toPaymentJson(cycle)]);
    expect(SubscriptionDetailSchema.strict().parse(detail)).toEqual(detail);
  });

  it('maps a list page', () => {
    const page = toSubscriptionListJson({ data: [protoSubscription()], has_more: true });
    expect(page).toMatchObject({ object: 'list', has_more: true, data: [{ id: 'sub_01jsub' }] });
    expect(SubscriptionListSchema.parse(page)).toEqual(page);
  });

  it('fails loudly on a status or frequency the document does not promise', () => {
    expect(() => toSubscriptionJson(protoSubscription({ status: 'paused' }))).toThrow(/undocumented subscription.status/);
    expect(() => toSubscriptionJson(protoSubscription({ frequency: 'daily' }))).toThrow(/undocumented subscription.frequency/);
  });

  describe('create request', () => {
    const context = { caller: CALLER, idempotencyKey: 'k1', requestHash: 'h1' };

    it('passes every field, the document as digits', () => {
      const input = CreateSubscriptionSchema.parse({
        customer: { name: 'Maria', document: '529.982.247-25' },
        frequency: 'weekly',
        amount: 1000,
        first_amount: 500,
        description: 'Aulas',
        start_date: '2026-12-01',
        end_date: '2027-12-01',
        retry: false,
        metadata: { plan: 'pro' },
        tracking: { utm_source: 'google' },
        provider_account_id: 'pa_1',
      });
      expect(toCreateSubscriptionRequest(input, context)).toEqual({
        caller: CALLER,
        idempotency_key: 'k1',
        request_hash: 'h1',
        customer: expect.objectContaining({ name: 'Maria', document: '52998224725' }),
        frequency: 'weekly',
        amount: 1000,
        first_amount: 500,
        description: 'Aulas',
        start_date: '2026-12-01',
        end_date: '2027-12-01',
        retry: false,
        metadata: { plan: 'pro' },
        tracking: { utm_source: 'google' },
        provider_account_id: 'pa_1',
      });
    });

    it('leaves the optional fields absent, a null amount meaning variable', () => {
      const input = CreateSubscriptionSchema.parse({ customer: { name: 'Maria', document: '52998224725' }, frequency: 'monthly', amount: null, first_amount: 990 });
      const request = toCreateSubscriptionRequest(input, { ...context, idempotencyKey: undefined });
      expect(request).toEqual({
        caller: CALLER,
        idempotency_key: '',
        request_hash: 'h1',
        customer: expect.objectContaining({ name: 'Maria', document: '52998224725' }),
        frequency: 'monthly',
        first_amount: 990,
        description: '',
        metadata: {},
        tracking: {},
      });
      expect('amount' in request).toBe(false);
    });
  });
});

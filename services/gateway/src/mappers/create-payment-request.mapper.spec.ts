import { common } from '@orquestra/contracts';
import { CreatePaymentSchema } from '../schemas/create-payment.schema';
import { toCreatePaymentRequest } from './create-payment-request.mapper';

const caller: common.Caller = { merchant_id: 'acct_1', mode: common.Mode.MODE_TEST, key_id: 'key_1', restricted: false, request_id: 'req_1' };

describe('create-payment request mapper', () => {
  it('fills proto defaults for absent fields, leaves out the customer fields not given, and takes the caller IP as buyer IP', () => {
    const input = CreatePaymentSchema.parse({ amount: 500, customer: { name: 'Ana' } });
    const request = toCreatePaymentRequest(input, { caller, callerIp: '177.1.2.3', idempotencyKey: undefined, requestHash: 'h' });
    expect(request.customer).toStrictEqual({ name: 'Ana', ip: '177.1.2.3' });
    expect(request).toEqual({
      caller,
      idempotency_key: '',
      request_hash: 'h',
      method: '',
      amount: 500,
      description: '',
      customer: { name: 'Ana', ip: '177.1.2.3' },
      expires_in_minutes: 0,
      metadata: {},
      tracking: {},
      provider_account_id: '',
      splits: [],
    });
  });

  it('sends split parts as cents or as hundredths of a percent (12.5% → 1250, 33.33% → 3333, no float residue)', () => {
    const input = CreatePaymentSchema.parse({
      method: 'pix',
      amount: 1990,
      customer: { name: 'Ana' },
      splits: [{ subaccount_id: 'sub_a', amount: 300 }, { subaccount_id: 'sub_b', percentage: 12.5 }, { subaccount_id: 'sub_c', percentage: 33.33 }, { subaccount_id: 'sub_d', percentage: 0.29 }],
    });
    expect(toCreatePaymentRequest(input, { caller, callerIp: '177.1.2.3', idempotencyKey: undefined, requestHash: 'h' }).splits).toStrictEqual([
      { subaccount_id: 'sub_a', amount: 300 },
      { subaccount_id: 'sub_b', percent_bps: 1_250 },
      { subaccount_id: 'sub_c', percent_bps: 3_333 },
      { subaccount_id: 'sub_d', percent_bps: 29 },
    ]);
  });

  it('passes every given field, normalized, and keeps the buyer IP the body names', () => {
    const input = CreatePaymentSchema.parse({
      method: 'pix',
      amount: 1990,
      description: 'Plano',
      customer: {
        name: 'Ana',
        email: 'ana@x.com',
        document: '529.982.247-25',
        phone: '+55 11 90000-0000',
        ip: '200.1.1.1',
        address: { street: 'Rua A', number: '1', neighborhood: 'B', city: 'C', state: 'rj', zip: '20000-000' },
      },
      expires_in_minutes: 15,
      metadata: { a: '1' },
      tracking: { utm_source: 'ig' },
      provider_account_id: 'pa_1',
    });
    const request = toCreatePaymentRequest(input, { caller, callerIp: '177.1.2.3', idempotencyKey: 'k1', requestHash: 'h' });
    expect(request).toMatchObject({
      idempotency_key: 'k1',
      method: 'pix',
      expires_in_minutes: 15,
      metadata: { a: '1' },
      tracking: { utm_source: 'ig' },
      provider_account_id: 'pa_1',
      customer: {
        document: '52998224725',
        ip: '200.1.1.1',
        address: { street: 'Rua A', number: '1', neighborhood: 'B', city: 'C', state: 'RJ', zip: '20000000' },
      },
    });
    expect(request.customer?.address).not.toHaveProperty('complement');
  });
  it('forwards the card token, installments and brand (installments default to 1)', () => {
    const input = CreatePaymentSchema.parse({ method: 'card', amount: 5000, customer: { name: 'Ana' }, card: { token: 'pm_card_visa', brand: 'visa' }, provider_account_id: 'pa_1' });
    const request = toCreatePaymentRequest(input, { caller, callerIp: '177.1.2.3', idempotencyKey: undefined, requestHash: 'h' });
    expect(request.card).toEqual({ token: 'pm_card_visa', id: '', installments: 1, brand: 'visa', without_cvc: false });
    expect(request.provider_account_id).toBe('pa_1');
    expect(request.customer?.ip).toBe('177.1.2.3');
  });
});

import { common, toPublicPayment, paymentObjectSchema, type payments } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { publicPaymentObject, toProtoPayment } from '../db/payment.mapper';
import { assertCycleRequest, cyclePaymentDraft, isSameCycle } from './cycle-payment-draft';

const request = (overrides: Partial<payments.CreateCyclePaymentRequest> = {}): payments.CreateCyclePaymentRequest => ({
  merchant_id: 'acct_1',
  mode: common.Mode.MODE_TEST,
  payment_id: 'pay_01JCYCLE',
  subscription_id: 'sub_1',
  cycle: 2,
  provider_account_id: 'pa_efi',
  provider_recurrence_id: 'RN1234567820261201abcdefghijk',
  amount: 1990,
  due_date: '2026-12-10',
  description: 'Plano ouro',
  customer: { name: 'Ana', document: '123.456.789-09' },
  metadata: { plan: 'gold' },
  tracking: { utm_source: 'news' },
  source_key_id: 'key_1',
  ...overrides,
});
const account = { provider: 'efi', fees: [{ method: 'pix', percent_bps: 100, fixed: 10 }] };
const now = new Date('2026-11-30T12:00:00Z');
const until = new Date('2026-11-30T12:00:24Z');

function refusal(overrides: Partial<payments.CreateCyclePaymentRequest>): AppError {
  try {
    assertCycleRequest(request(overrides));
  } catch (error) {
    return error as AppError;
  }
  throw new Error('accepted');
}

describe('cycle payment request and draft', () => {
  it('accepts a complete request', () => {
    expect(() => assertCycleRequest(request())).not.toThrow();
  });

  it('names the field of a bad request, in Portuguese', () => {
    expect(refusal({ merchant_id: '' })).toMatchObject({ code: 'parameter_missing', param: 'merchant_id' });
    expect(refusal({ provider_recurrence_id: '' })).toMatchObject({ code: 'parameter_missing', param: 'provider_recurrence_id' });
    // The approval's payment adopts a plain Pix charge: no recurrence id needed then.
    expect(() => assertCycleRequest(request({ provider_recurrence_id: '', provider_charge_id: 'txidapproval1', cycle: 1 }))).not.toThrow();
    expect(refusal({ customer: { document: '12345678909' } })).toMatchObject({ code: 'parameter_missing', param: 'customer.name' });
    expect(refusal({ payment_id: 'sub_1' })).toMatchObject({ code: 'parameter_invalid', param: 'payment_id', message: expect.stringMatching(/id de pagamento/) });
    expect(refusal({ cycle: 0 })).toMatchObject({ code: 'parameter_invalid', param: 'cycle' });
    expect(refusal({ amount: 0 })).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    expect(refusal({ due_date: '10/12/2026' })).toMatchObject({ code: 'parameter_invalid', param: 'due_date' });
    expect(refusal({ due_date: '2026-13-45' })).toMatchObject({ code: 'parameter_invalid', param: 'due_date' });
  });

  it('drafts a pending Pix debited on the due date: no QR, no expiry, no due work, the fee of the account', () => {
    const draft = cyclePaymentDraft(request(), account, now, until);
    expect(draft).toMatchObject({
      _id: 'pay_01JCYCLE', merchant_id: 'acct_1', mode: 'test', source_key_id: 'key_1', method: 'pix', status: 'pending',
      amount: 1990, fee: 30, net: 1960, provider: 'efi', provider_account_id: 'pa_efi', provider_payment_id: '',
      next_action: { type: 'none' }, expires_at: null, due_at: null,
      subscription_id: 'sub_1', cycle: 2, due_date: '2026-12-10', provider_recurrence_id: 'RN1234567820261201abcdefghijk',
      cycle_charge_until: until, metadata: { plan: 'gold' }, tracking: { utm_source: 'news' },
      customer: { name: 'Ana', document: '123.456.789-09' },
    });
  });

  it('records an adopted charge as is, with nothing to send', () => {
    const draft = cyclePaymentDraft(request({ provider_charge_id: 'pay_asaas_1' }), account, now, until);
    expect(draft).toMatchObject({ provider_payment_id: 'pay_asaas_1', cycle_charge_until: null });
  });

  it('recognizes the same cycle, and not another one under the same id', () => {
    const stored = cyclePaymentDraft(request(), account, now, until);
    expect(isSameCycle(stored, request())).toBe(true);
    expect(isSameCycle(stored, request({ cycle: 3 }))).toBe(false);
    expect(isSameCycle(stored, request({ subscription_id: 'sub_2' }))).toBe(false);
    expect(isSameCycle(stored, request({ mode: common.Mode.MODE_LIVE }))).toBe(false);
    expect(isSameCycle(stored, request({ merchant_id: 'acct_2' }))).toBe(false);
  });

  it('answers the subscription, cycle and due date; the public object carries the subscription (null for other payments)', () => {
    const draft = cyclePaymentDraft(request(), account, now, until);
    expect(toProtoPayment(draft)).toMatchObject({ subscription_id: 'sub_1', cycle: 2, due_date: '2026-12-10', next_action: { type: 'none' } });
    const object = publicPaymentObject(draft, 'http://pay.example/pay_01JCYCLE');
    expect(paymentObjectSchema.safeParse(object).success).toBe(true);
    expect(object).toMatchObject({ subscription_id: 'sub_1', next_action: { type: 'none', qr_code: null }, expires_at: null });
    const other = { ...draft, subscription_id: undefined, cycle: undefined, due_date: undefined };
    expect(toProtoPayment(other)).toMatchObject({ subscription_id: '', cycle: 0, due_date: '' });
    expect(toPublicPayment(toProtoPayment(other), { withHistory: false }).subscription_id).toBeNull();
  });
});

import { common } from '@orquestra/contracts';
import { PaymentDetailSchema, PaymentListSchema, PaymentSchema } from '../schemas/payment.response.schema';
import { protoPayment } from '../testing/fixtures';
import { toPaymentDetailJson, toPaymentJson, toPaymentListJson } from './payment.mapper';

describe('payment mapper', () => {
  it('maps a pending Pix payment to the public shape', () => {
    expect(toPaymentJson(protoPayment())).toEqual({
      id: 'pay_01jabc',
      object: 'payment',
      mode: 'test',
      method: 'pix',
      status: 'pending',
      amount: 1990,
      amount_refunded: 0,
      currency: 'BRL',
      fee: 20,
      net: 1970,
      provider: 'efi',
      provider_account_id: 'pa_01jxyz',
      provider_payment_id: 'txid123',
      next_action: {
        type: 'pix_qr',
        qr_code: '00020101021226830014br.gov.bcb.pix',
        qr_code_base64: null,
        qr_code_url: 'http://localhost:8080/qr/pay_01jabc.png',
        digitable_line: null,
        url: null,
      },
      metadata: { order_id: '42' },
      failure_reason: null,
      failure_code: null,
      end_to_end_id: null,
      subscription_id: null,
      splits: [],
      payment_url: 'http://pay.localhost/pay_01jabc',
      expires_at: '2026-10-01T12:30:00.000Z',
      tracking: { utm_source: 'facebook' },
      customer: { id: null, name: 'Maria da Silva', email: 'maria@exemplo.com.br', document: null, phone: null, address: null },
      description: null,
      created_at: '2026-10-01T12:00:00.000Z',
      updated_at: '2026-10-01T12:00:01.000Z',
    });
  });

  it('turns every empty proto string into null and a missing next action into null', () => {
    const json = toPaymentJson(
      protoPayment({
        method: '',
        status: 'requires_method',
        provider: '',
        provider_account_id: '',
        provider_payment_id: '',
        next_action: undefined,
        payment_url: '',
        expires_at: '',
        customer: undefined,
        updated_at: '',
      }),
    );
    expect(json).toMatchObject({
      method: null,
      provider: null,
      provider_account_id: null,
      provider_payment_id: null,
      next_action: null,
      payment_url: null,
      expires_at: null,
      customer: null,
      updated_at: null,
    });
  });

  it('shows live mode, failures and the end-to-end id', () => {
    const json = toPaymentJson(
      protoPayment({
        mode: common.Mode.MODE_LIVE,
        status: 'failed',
        failure_code: 'all_providers_failed',
        failure_reason: 'Nenhuma conta respondeu',
        end_to_end_id: 'E123',
        description: 'Plano',
      }),
    );
    expect(json).toMatchObject({
      mode: 'live',
      status: 'failed',
      failure_code: 'all_providers_failed',
      failure_reason: 'Nenhuma conta respondeu',
      end_to_end_id: 'E123',
      description: 'Plano',
    });
  });

  it('shows what the customer was given without as null', () => {
    const json = toPaymentJson(
      protoPayment({
        customer: {
          name: 'Maria',
          document: '52998224725',
          address: { street: 'Av. Paulista', number: '1', neighborhood: 'Centro', city: 'SP', state: 'SP', zip: '01310100' },
        },
        customer_id: 'cus_01jcustomer',
      }),
    );
    expect(json.customer).toEqual({
      id: 'cus_01jcustomer',
      name: 'Maria',
      email: null,
      document: '52998224725',
      phone: null,
      address: { street: 'Av. Paulista', number: '1', neighborhood: 'Centro', city: 'SP', state: 'SP', zip: '01310100', complement: null },
    });
  });

  it('never exposes the buyer IP or the creating key', () => {
    const json = toPaymentJson(protoPayment()) as unknown as Record<string, unknown>;
    expect(JSON.stringify(json)).not.toContain('10.0.0.1');
    expect(json).not.toHaveProperty('source_key_id');
  });

  it('adds attempts, refunds and events on retrieve', () => {
    const json = toPaymentDetailJson(
      protoPayment({
        attempts: [
          {
            id: 'att_1',
            provider_account_id: 'pa_1',
            provider: 'efi',
            outcome: 'failed',
            failure_code: 'provider_unavailable',
            failure_reason: 'timeout',
            latency_ms: 120,
            created_at: '2026-10-01T12:00:00.000Z',
          },
          { id: 'att_2', provider_account_id: 'pa_2', provider: 'mp', outcome: 'succeeded', failure_code: '', failure_reason: '', latency_ms: 80, created_at: '2026-10-01T12:00:01.000Z' },
        ],
        events: [{ id: 'evt_1', type: 'payment.created', created: 1790000000 }],
      }),
    );
    expect(json.attempts).toEqual([
      {
        id: 'att_1',
        object: 'payment_attempt',
        provider_account_id: 'pa_1',
        provider: 'efi',
        outcome: 'failed',
        failure_code: 'provider_unavailable',
        failure_reason: 'timeout',
        latency_ms: 120,
        created_at: '2026-10-01T12:00:00.000Z',
      },
      {
        id: 'att_2',
        object: 'payment_attempt',
        provider_account_id: 'pa_2',
        provider: 'mp',
        outcome: 'succeeded',
        failure_code: null,
        failure_reason: null,
        latency_ms: 80,
        created_at: '2026-10-01T12:00:01.000Z',
      },
    ]);
    expect(json.events).toEqual([{ id: 'evt_1', type: 'payment.created', created: 1790000000 }]);
    expect(json.refunds).toEqual([]);
  });

  it('produces JSON that the documented response schemas accept (strictly)', () => {
    expect(() => PaymentSchema.strict().parse(toPaymentJson(protoPayment()))).not.toThrow();
    expect(() => PaymentDetailSchema.strict().parse(toPaymentDetailJson(protoPayment()))).not.toThrow();
    expect(() => PaymentListSchema.parse(toPaymentListJson({ data: [protoPayment()], has_more: true }))).not.toThrow();
  });

  it('maps a list page', () => {
    const list = toPaymentListJson({ data: [protoPayment({ attempts: [] })], has_more: true });
    expect(list).toMatchObject({ object: 'list', has_more: true });
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).not.toHaveProperty('attempts');
  });

  it('refuses an undocumented status instead of showing it to a bot', () => {
    expect(() => toPaymentJson(protoPayment({ status: 'paid' }))).toThrow(/undocumented status/);
  });
});

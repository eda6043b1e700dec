import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasError, parsePix } from 'pix-utils';
import type { AdapterContext, CreateChargeInput } from '../provider-adapter';
import { PagarmeAdapter } from './pagarme.adapter';
import {
  buildOrderRequest,
  chargeOfOrder,
  checkedCents,
  customerFor,
  mapChargeStatus,
  parsePhone,
  toProviderCharge,
  type PagarmeCharge,
  type PagarmeChargeStatus,
  type PagarmeOrder,
} from './pagarme.transformers';
import { parsePagarmeWebhookBody } from './pagarme.webhook';
import { PAGARME_ERROR_TABLE, errorMessage, providerErrorFor } from './pagarme.errors';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;
const rawFixture = (name: string): Buffer => readFileSync(join(__dirname, 'fixtures', name));

const input = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => ({
  paymentId: 'pay_01JNX3S2Q8W5R7T9V1X3Z5B7D9',
  method: 'pix',
  amount: 199_007,
  customer: { name: 'Maria Aparecida Souza', email: 'maria@example.com', document: '529.982.247-25', phone: '+55 11 91234-5678' },
  expiresInSeconds: 3600,
  description: 'Pedido 4411',
  metadata: { order_id: '4411' },
  idempotencyKey: 'pay_01:acc_01',
  ...overrides,
});

describe('amounts (integer centavos both ways)', () => {
  it('passes positive safe integers through unchanged', () => {
    for (const cents of [1, 29, 110, 199_007, Number.MAX_SAFE_INTEGER]) expect(checkedCents(cents)).toBe(cents);
  });

  it('refuses what cannot be charged', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => checkedCents(bad)).toThrow(RangeError);
  });
});

describe('customer', () => {
  it.each([
    ['+55 11 91234-5678', { country_code: '55', area_code: '11', number: '912345678' }],
    ['(21) 3456-7890', { country_code: '55', area_code: '21', number: '34567890' }],
    ['11912345678', { country_code: '55', area_code: '11', number: '912345678' }],
    ['5511912345678', { country_code: '55', area_code: '11', number: '912345678' }],
  ])('splits %s', (phone, expected) => {
    expect(parsePhone(phone)).toEqual(expected);
  });

  it('refuses phones it cannot split', () => {
    for (const bad of [undefined, '', '12345', '+1 415 555 0100 12', '0800 123 4567']) expect(() => parsePhone(bad)).toThrow(RangeError);
  });

  it('sends an individual for a CPF and a company for a CNPJ, digits only', () => {
    expect(customerFor(input().customer)).toEqual({
      name: 'Maria Aparecida Souza',
      email: 'maria@example.com',
      type: 'individual',
      document: '52998224725',
      document_type: 'CPF',
      phones: { mobile_phone: { country_code: '55', area_code: '11', number: '912345678' } },
    });
    expect(customerFor({ ...input().customer, document: '11.222.333/0001-81' })).toMatchObject({ type: 'company', document: '11222333000181', document_type: 'CNPJ' });
  });

  it('refuses a customer Pagar.me would refuse', () => {
    const base = input().customer;
    expect(() => customerFor({ ...base, name: '  ' })).toThrow(/name/);
    expect(() => customerFor({ ...base, email: undefined })).toThrow(/email/);
    expect(() => customerFor({ ...base, document: '123' })).toThrow(/document/);
    expect(() => customerFor({ ...base, phone: undefined })).toThrow(/phone/);
  });
});

describe('order request', () => {
  it('is one item of the whole amount and one Pix payment, with our metadata and code', () => {
    expect(buildOrderRequest(input())).toEqual({
      code: 'pay_01JNX3S2Q8W5R7T9V1X3Z5B7D9',
      items: [{ amount: 199_007, description: 'Pedido 4411', quantity: 1, code: 'pay_01JNX3S2Q8W5R7T9V1X3Z5B7D9' }],
      customer: expect.objectContaining({ document: '52998224725' }),
      payments: [{ payment_method: 'pix', pix: { expires_in: 3600, additional_information: [{ name: 'Pedido', value: 'Pedido 4411' }] } }],
      metadata: { order_id: '4411' },
    });
  });

  it('uses a default description and keeps codes within 52 characters', () => {
    const request = buildOrderRequest(input({ description: undefined, paymentId: `pay_${'x'.repeat(80)}` }));
    expect(request.items[0]?.description).toBe('Pagamento Pix');
    const payment = request.payments[0];
    expect(payment?.payment_method === 'pix' ? payment.pix.additional_information : 'not pix').toBeUndefined();
    expect(request.code).toHaveLength(52);
  });

  it('builds a boleto due at the end of the third day in São Paulo, with the customer address', () => {
    const address = { street: 'Avenida Paulista', number: '1578', complement: 'Conjunto 12', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-200' };
    const request = buildOrderRequest(input({ method: 'boleto', customer: { ...input().customer, address } }), new Date('2026-11-10T01:00:00Z'));
    expect(request.customer.address).toEqual({ line_1: '1578, Avenida Paulista, Bela Vista', line_2: 'Conjunto 12', zip_code: '01310200', city: 'São Paulo', state: 'SP', country: 'BR' });
    expect(request.payments[0]).toMatchObject({ payment_method: 'boleto', boleto: { due_at: '2026-11-13T02:59:59.000Z' } });
    expect(() => buildOrderRequest(input({ method: 'boleto' }))).toThrow(RangeError);
    expect(() => buildOrderRequest(input({ method: 'card' }))).toThrow(RangeError);
  });

  it('reads a boleto charge: the line as digits, the voucher url and the due date', () => {
    const charge = toProviderCharge({
      id: 'ch_1',
      amount: 1990,
      status: 'pending',
      last_transaction: { transaction_type: 'boleto', line: '23793.38128 60000.000003 00000.000400 1 84340000001990', barcode: '23791843400000019903381260000000000000000040', url: 'https://api.pagar.me/core/v5/transactions/tran_1/pdf', pdf: 'https://api.pagar.me/core/v5/transactions/tran_1/pdf', due_at: '2026-11-13T02:59:59Z' },
    });
    expect(charge).toMatchObject({ status: 'pending', nextAction: { type: 'boleto', digitableLine: '23793381286000000000300000000400184340000001990', url: 'https://api.pagar.me/core/v5/transactions/tran_1/pdf' }, expiresAt: new Date('2026-11-13T02:59:59Z') });
  });
});

describe('split rules', () => {
  const splits = [
    { subaccountId: 'sub_a', splitTarget: 'rp_a', amount: 50_000 },
    { subaccountId: 'sub_b', splitTarget: 'rp_b', amount: 1 },
  ];

  it('one flat rule per part, then the main recipient with the rest, liable and paying the fees', () => {
    const payment = buildOrderRequest(input({ splits }), new Date(), 'rp_main').payments[0];
    const none = { liable: false, charge_processing_fee: false, charge_remainder_fee: false };
    expect(payment?.split).toEqual([
      { amount: 50_000, type: 'flat', recipient_id: 'rp_a', options: none },
      { amount: 1, type: 'flat', recipient_id: 'rp_b', options: none },
      { amount: 199_007 - 50_001, type: 'flat', recipient_id: 'rp_main', options: { liable: true, charge_processing_fee: true, charge_remainder_fee: true } },
    ]);
    expect(payment?.split?.reduce((sum, rule) => sum + rule.amount, 0)).toBe(199_007);
    expect(buildOrderRequest(input()).payments[0]?.split).toBeUndefined();
  });

  it('refuses parts that leave the main account nothing, name it, repeat a recipient, or come without it', () => {
    expect(() => buildOrderRequest(input({ splits: [{ ...splits[0]!, amount: 199_007 }] }), new Date(), 'rp_main')).toThrow(RangeError);
    expect(() => buildOrderRequest(input({ splits: [{ ...splits[0]!, splitTarget: 'rp_main' }] }), new Date(), 'rp_main')).toThrow(RangeError);
    expect(() => buildOrderRequest(input({ splits: [splits[0]!, { ...splits[1]!, splitTarget: 'rp_a' }] }), new Date(), 'rp_main')).toThrow(RangeError);
    expect(() => buildOrderRequest(input({ splits }))).toThrow(RangeError);
  });
});

describe('status map', () => {
  const every: PagarmeChargeStatus[] = ['pending', 'paid', 'canceled', 'processing', 'failed', 'overpaid', 'underpaid', 'chargedback'];

  it.each(every)('maps %s', (status) => {
    expect(['pending', 'paid', 'failed', 'canceled']).toContain(mapChargeStatus({ status, last_transaction: null }).status);
  });

  it('tells an expired Pix (QR present) from one refused at creation', () => {
    expect(mapChargeStatus({ status: 'failed', last_transaction: { qr_code: '000201…' } })).toMatchObject({ status: 'canceled', failureCode: 'expired' });
    expect(mapChargeStatus({ status: 'failed', last_transaction: {} })).toMatchObject({ status: 'failed', failureCode: 'provider_declined' });
  });

  it('throws on a status it does not know', () => {
    expect(() => mapChargeStatus({ status: 'mystery' as PagarmeChargeStatus })).toThrow(/unhandled value/);
  });
});

describe('charges from fixtures', () => {
  it('reads the pending charge of a created order, with a valid BR Code', () => {
    const charge = chargeOfOrder(fixture<PagarmeOrder>('order-pix-pending.json'));
    const result = toProviderCharge(charge!);
    expect(result).toMatchObject({
      providerPaymentId: 'ch_K2rJ5nlHwTE4qRDP',
      status: 'pending',
      amount: 199_007,
      amountPaid: 0,
      nextAction: { type: 'pix_qr' },
      expiresAt: new Date('2025-03-10T15:02:11Z'),
    });
    expect(hasError(parsePix(result.nextAction.qrCode ?? ''))).toBe(false);
    expect(charge?.order).toEqual({ id: 'or_56GXnk6T0eU88qMm', code: 'pay_01JNX3S2Q8W5R7T9V1X3Z5B7D9', status: 'pending', metadata: { order_id: '4411' } });
  });

  it('reads a paid charge', () => {
    expect(toProviderCharge(fixture<PagarmeCharge>('charge-pix-paid.json'))).toEqual({
      providerPaymentId: 'ch_K2rJ5nlHwTE4qRDP',
      status: 'paid',
      amount: 199_007,
      amountPaid: 199_007,
      nextAction: { type: 'none' },
      expiresAt: new Date('2025-03-10T15:02:11Z'),
      paidAt: new Date('2025-03-10T14:05:42Z'),
      endToEndId: 'E18236120202503101405s0123456789',
    });
  });

  it('reads expired, refused and canceled charges', () => {
    expect(toProviderCharge(fixture<PagarmeCharge>('charge-pix-failed-expired.json'))).toMatchObject({ status: 'canceled', failureCode: 'expired', nextAction: { type: 'none' } });
    expect(toProviderCharge(fixture<PagarmeCharge>('charge-pix-failed-refused.json'))).toMatchObject({
      status: 'failed',
      failureCode: 'provider_declined',
      failureReason: 'Pix não habilitado para esta conta.',
    });
    expect(toProviderCharge(fixture<PagarmeCharge>('charge-pix-canceled.json'))).toMatchObject({ status: 'canceled', amountPaid: 0, nextAction: { type: 'none' } });
  });

  it('reports what arrived for over- and underpaid charges', () => {
    const paid = fixture<PagarmeCharge>('charge-pix-paid.json');
    expect(toProviderCharge({ ...paid, status: 'overpaid', paid_amount: 200_000 })).toMatchObject({ status: 'paid', amountPaid: 200_000 });
    expect(toProviderCharge({ ...paid, status: 'underpaid', paid_amount: 100 })).toMatchObject({ status: 'failed', failureCode: 'underpaid', amountPaid: 100 });
  });
});

describe('error table', () => {
  it.each([
    [400, 'rejected', 'provider_rejected'],
    [401, 'invalid_credentials', 'invalid_credentials'],
    [403, 'invalid_credentials', 'invalid_credentials'],
    [404, 'not_found', 'not_found'],
    [412, 'rejected', 'provider_rejected'],
    [422, 'rejected', 'provider_rejected'],
    [418, 'rejected', 'provider_rejected'],
  ])('HTTP %i → %s/%s', (status, kind, code) => {
    const error = providerErrorFor(status, { message: 'x' }, 'op');
    expect({ kind: error.kind, code: error.normalizedCode, httpStatus: error.httpStatus }).toEqual({ kind, code, httpStatus: status });
  });

  it('fails over only where the account certainly did not act', () => {
    expect(Object.entries(PAGARME_ERROR_TABLE).filter(([, r]) => r.retryElsewhere).map(([s]) => Number(s))).toEqual([401, 403]);
  });

  it('names the invalid fields, not their values', () => {
    const message = errorMessage(fixture('error-422-customer.json'));
    expect(message).toBe('The request is invalid. order.customer.name: The name field is required. order.customer.document: The document field is invalid.');
    expect(message).not.toContain('maria@example.com');
    expect(providerErrorFor(401, fixture('error-401.json'), 'get charge').message).toBe('pagarme get charge: HTTP 401: Authorization has been denied for this request.');
    expect(errorMessage('<html>bad gateway</html>')).toBeUndefined();
  });
});

describe('webhook body', () => {
  it('takes the charge ids of an order event and the hook id as event key', () => {
    expect(parsePagarmeWebhookBody(rawFixture('webhook-order-paid.json'))).toEqual({
      kind: 'event',
      type: 'order.paid',
      chargeIds: ['ch_K2rJ5nlHwTE4qRDP'],
      eventKey: 'pagarme:hook_RyEKQO789TRpZjv5',
    });
  });

  it('takes the charge id of a charge event', () => {
    expect(parsePagarmeWebhookBody(rawFixture('webhook-charge-paid.json'))).toMatchObject({ chargeIds: ['ch_K2rJ5nlHwTE4qRDP'], eventKey: 'pagarme:hook_Bq7Wm3Xk9Lp2Rt5Y' });
  });

  it('accepts events about no charge', () => {
    expect(parsePagarmeWebhookBody(rawFixture('webhook-customer-created.json'))).toMatchObject({ kind: 'event', type: 'customer.created', chargeIds: [] });
  });

  it('keys a body without a hook id by its digest', () => {
    const body = Buffer.from('{"type":"charge.paid","data":{"id":"ch_1"}}');
    const first = parsePagarmeWebhookBody(body);
    expect(first).toMatchObject({ chargeIds: ['ch_1'], eventKey: expect.stringMatching(/^pagarme:[0-9a-f]{32}$/) });
    expect(parsePagarmeWebhookBody(Buffer.from(body))).toEqual(first);
  });

  it.each([['not json'], ['[]'], ['{"type":"order.paid"}'], ['{"type":1,"data":{}}'], ['{"type":"charge.paid","data":{}}'], ['{"type":"order.paid","data":{"charges":{}}}']])(
    'calls %s malformed',
    (text) => {
      expect(parsePagarmeWebhookBody(Buffer.from(text))).toEqual({ kind: 'malformed' });
    },
  );
});

describe('webhook authentication (secret in the URL)', () => {
  const context: AdapterContext = {
    baseUrl: 'https://api.pagar.me/core/v5',
    credentials: { secret_key: 'sk_test_abc123' },
    webhookUrl: 'https://hooks.example/webhooks/pagarme/acc_1?hmac=whsec_3c1f0d9a7b',
    webhookSecret: 'whsec_3c1f0d9a7b',
    settings: {},
    timeoutMs: 1_000,
  };
  const adapter = new PagarmeAdapter(context);
  const rawBody = rawFixture('webhook-order-paid.json');
  afterAll(() => adapter.close());

  it('accepts the right secret', () => {
    expect(adapter.parseWebhook({ subPath: '', query: { hmac: 'whsec_3c1f0d9a7b' }, headers: {}, rawBody })).toEqual({
      ok: true,
      providerPaymentIds: ['ch_K2rJ5nlHwTE4qRDP'],
      eventKey: 'pagarme:hook_RyEKQO789TRpZjv5',
    });
  });

  it.each([[{ hmac: 'whsec_3c1f0d9a7c' }], [{ hmac: '' }], [{ hmac: 'whsec_3c1f0d9a7b ' }], [{}]])('refuses %j as unauthenticated', (query) => {
    expect(adapter.parseWebhook({ subPath: '', query, headers: {}, rawBody })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });

  it('checks authenticity before the body', () => {
    const garbage = Buffer.from('not json');
    expect(adapter.parseWebhook({ subPath: '', query: {}, headers: {}, rawBody: garbage })).toMatchObject({ reason: 'unauthenticated' });
    expect(adapter.parseWebhook({ subPath: '', query: { hmac: 'whsec_3c1f0d9a7b' }, headers: {}, rawBody: garbage })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
  });

  it('refuses everything when the account has no secret', () => {
    const unset = new PagarmeAdapter({ ...context, webhookSecret: '' });
    expect(unset.parseWebhook({ subPath: '', query: { hmac: '' }, headers: {}, rawBody })).toMatchObject({ ok: false, reason: 'unauthenticated' });
    void unset.close();
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateChargeInput } from '../provider-adapter';
import { JsonDecimal, parseJsonExact, stringifyExact } from './asaas.json';
import {
  brazilianPhone,
  buildCustomerRequest,
  buildPaymentRequest,
  centsToReais,
  documentDigits,
  externalReferenceFor,
  mapPaymentStatus,
  parseSaoPauloTime,
  reaisToCents,
  toProviderCharge,
  type AsaasPayment,
  type AsaasPaymentStatus,
  type AsaasPixQrCode,
  type AsaasPixTransaction,
} from './asaas.transformers';
import { ASAAS_ERROR_TABLE, providerErrorFor } from './asaas.errors';
import { newAuthToken, parseAsaasWebhookBody, sameSecret } from './asaas.webhook';

const raw = (name: string): Buffer => readFileSync(join(__dirname, 'fixtures', name));
const fixture = <T>(name: string): T => parseJsonExact(raw(name).toString('utf8')) as T;

const input = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => ({
  paymentId: 'pay_01',
  method: 'pix',
  amount: 199_007,
  customer: { name: 'Maria Aparecida Souza', document: '529.982.247-25', email: 'maria@example.com', phone: '+55 11 98765-4321' },
  expiresInSeconds: 3600,
  description: 'Pedido 4411',
  metadata: { order: '4411' },
  idempotencyKey: 'pay_01:acc_01',
  ...overrides,
});

describe('money', () => {
  it.each([
    [1, '0.01'],
    [10, '0.10'],
    [29, '0.29'],
    [110, '1.10'],
    [435, '4.35'],
    [199_007, '1990.07'],
    [999_999_999_999_99, '999999999999.99'],
  ])('%i cents is %s reais and back', (cents, text) => {
    expect(centsToReais(cents).text).toBe(text);
    expect(reaisToCents(text)).toBe(cents);
  });

  it('reads the ways Asaas writes numbers', () => {
    expect(reaisToCents('100.9')).toBe(10_090);
    expect(reaisToCents('100')).toBe(10_000);
    expect(reaisToCents('100.900')).toBe(10_090);
  });

  it('refuses amounts that are not whole cents or not positive integers', () => {
    expect(() => centsToReais(0)).toThrow(RangeError);
    expect(() => centsToReais(1.5)).toThrow(RangeError);
    for (const bad of ['1.005', '1e3', '-1.00', ' 1.00', '1,00', '']) expect(() => reaisToCents(bad)).toThrow(RangeError);
  });

  it('writes request amounts as exact JSON numbers and parses answers without floats', () => {
    expect(stringifyExact({ value: centsToReais(435), d: 'x', n: undefined, a: [1, null] })).toBe('{"value":4.35,"d":"x","a":[1,null]}');
    expect(parseJsonExact('{"value":0.29,"s":"1.10","nested":{"v":[4.35]}}')).toEqual({ value: '0.29', s: '1.10', nested: { v: ['4.35'] } });
    expect(() => parseJsonExact('{bad')).toThrow(SyntaxError);
    expect(() => new JsonDecimal('1e3')).toThrow(RangeError);
  });
});

describe('requests', () => {
  it('builds the Pix payment with the idempotency key as externalReference and a São Paulo due date', () => {
    // 2025-03-10 23:30 in São Paulo is 02:30 UTC the next day; one hour later is still the 11th there.
    const body = buildPaymentRequest(input(), 'cus_000005219613', new Date('2025-03-11T02:30:00Z'));
    expect(stringifyExact(body)).toBe(
      '{"customer":"cus_000005219613","billingType":"PIX","value":1990.07,"dueDate":"2025-03-11","description":"Pedido 4411","externalReference":"pay_01:acc_01"}',
    );
  });

  it('keeps long idempotency keys within externalReference by hashing them, stably', () => {
    const long = 'k'.repeat(150);
    expect(externalReferenceFor(long)).toMatch(/^orq:[0-9a-f]{64}$/);
    expect(externalReferenceFor(long)).toBe(externalReferenceFor(long));
    expect(externalReferenceFor('short')).toBe('short');
  });

  it('builds the customer from a valid CPF/CNPJ, a Brazilian mobile and no Asaas notifications', () => {
    expect(buildCustomerRequest(input().customer)).toEqual({
      name: 'Maria Aparecida Souza',
      cpfCnpj: '52998224725',
      email: 'maria@example.com',
      mobilePhone: '11987654321',
      notificationDisabled: true,
    });
    expect(documentDigits('11.222.333/0001-81')).toBe('11222333000181');
    expect(documentDigits('111.111.111-11')).toBeUndefined();
    expect(brazilianPhone('123')).toBeUndefined();
  });

  it('refuses a customer without a valid document (Asaas requires one)', () => {
    expect(() => buildCustomerRequest({ name: 'Sem Documento' })).toThrow(expect.objectContaining({ kind: 'rejected', normalizedCode: 'provider_rejected' }));
    expect(() => buildCustomerRequest({ name: 'X', document: '12345678900' })).toThrow(expect.objectContaining({ kind: 'rejected' }));
  });
});

describe('status map', () => {
  const cases: [AsaasPaymentStatus, string][] = [
    ['PENDING', 'pending'], ['OVERDUE', 'pending'], ['AWAITING_RISK_ANALYSIS', 'pending'], ['AUTHORIZED', 'pending'], ['DUNNING_REQUESTED', 'pending'],
    ['RECEIVED', 'paid'], ['CONFIRMED', 'paid'], ['RECEIVED_IN_CASH', 'paid'], ['DUNNING_RECEIVED', 'paid'], ['REFUND_REQUESTED', 'paid'],
    ['REFUND_IN_PROGRESS', 'paid'], ['REFUNDED', 'paid'], ['CHARGEBACK_REQUESTED', 'paid'], ['CHARGEBACK_DISPUTE', 'paid'], ['AWAITING_CHARGEBACK_REVERSAL', 'paid'],
  ];
  it.each(cases)('%s → %s', (status, ours) => expect(mapPaymentStatus(status)).toBe(ours));

  it('covers the 15 statuses of Asaas OpenAPI and fails loudly on an unknown one', () => {
    expect(new Set(cases.map(([s]) => s)).size).toBe(15);
    expect(() => mapPaymentStatus('NEW_STATUS' as AsaasPaymentStatus)).toThrow('unhandled value');
  });
});

describe('toProviderCharge (documentation fixtures)', () => {
  const qr = fixture<AsaasPixQrCode>('pix-qrcode.json');

  it('a pending charge carries its QR code, the QR expiry and the fee', () => {
    expect(toProviderCharge(fixture<AsaasPayment>('payment-pending.json'), { qr })).toEqual({
      providerPaymentId: 'pay_080225913252',
      status: 'pending',
      amount: 199_007,
      amountPaid: 0,
      nextAction: { type: 'pix_qr', qrCode: qr.payload, qrCodeBase64: qr.encodedImage },
      expiresAt: new Date('2026-03-12T02:59:59Z'),
      providerFee: 199,
    });
  });

  it('an overdue Pix charge is still payable', () => {
    expect(toProviderCharge(fixture<AsaasPayment>('payment-overdue.json'), { qr })).toMatchObject({ status: 'pending', nextAction: { type: 'pix_qr' } });
  });

  it('a received charge is paid, with the EndToEndId and time of its Pix', () => {
    const charge = toProviderCharge(fixture<AsaasPayment>('payment-received.json'), { pixTransaction: fixture<AsaasPixTransaction>('pix-transaction.json') });
    expect(charge).toMatchObject({ status: 'paid', amountPaid: 199_007, nextAction: { type: 'none' }, endToEndId: 'E18236120202503101405s0a1b2c3d4e' });
    expect(charge.paidAt).toEqual(new Date('2025-03-10T17:05:47Z'));
    expect(toProviderCharge(fixture<AsaasPayment>('payment-received.json')).paidAt).toEqual(new Date('2025-03-10T03:00:00Z'));
  });

  it('a deleted charge is canceled whatever its status', () => {
    expect(toProviderCharge(fixture<AsaasPayment>('payment-deleted.json'), { qr })).toMatchObject({ status: 'canceled', nextAction: { type: 'none' }, failureCode: 'canceled' });
  });

  it('parses São Paulo times', () => {
    expect(parseSaoPauloTime('2025-03-10 14:05:47')).toEqual(new Date('2025-03-10T17:05:47Z'));
    expect(parseSaoPauloTime('garbage')).toBeUndefined();
  });
});

describe('boleto (billingType BOLETO)', () => {
  const pending = fixture<AsaasPayment>('payment-pending.json');
  const boleto: AsaasPayment = { ...pending, billingType: 'BOLETO', dueDate: '2025-03-13', bankSlipUrl: 'https://sandbox.asaas.com/b/pdf/080225913252', nossoNumero: '41237816' };
  const field = { identificationField: '34191.09008 63571.277308 71444.640008 5 10420000199007', nossoNumero: '41237816', barCode: '34195104200001990071090063571277307144464000' };

  it('is created with billingType BOLETO, due on the platform boleto due date (3 days in São Paulo), whatever expiresInSeconds', () => {
    // 2025-03-10 23:30 in São Paulo: due on the 13th.
    const body = buildPaymentRequest(input({ method: 'boleto', expiresInSeconds: 60 }), 'cus_000005219613', new Date('2025-03-11T02:30:00Z'));
    expect(body).toMatchObject({ billingType: 'BOLETO', dueDate: '2025-03-13', externalReference: 'pay_01:acc_01' });
    expect(buildPaymentRequest(input({ method: 'card' }), 'cus_1', new Date()).billingType).toBe('CREDIT_CARD');
  });

  it('a pending boleto: next action boleto with the digits of its line and bankSlipUrl, expiring at the end of its due date in São Paulo', () => {
    expect(toProviderCharge(boleto, { boleto: field })).toEqual({
      providerPaymentId: 'pay_080225913252',
      status: 'pending',
      amount: 199_007,
      amountPaid: 0,
      nextAction: { type: 'boleto', digitableLine: '34191090086357127730871444640008510420000199007', url: 'https://sandbox.asaas.com/b/pdf/080225913252' },
      expiresAt: new Date('2025-03-14T02:59:59Z'),
      providerFee: 199,
    });
    // The line could not be read: the slip alone; neither → no action.
    expect(toProviderCharge(boleto).nextAction).toEqual({ type: 'boleto', url: 'https://sandbox.asaas.com/b/pdf/080225913252' });
    expect(toProviderCharge({ ...boleto, bankSlipUrl: 'javascript:alert(1)' }).nextAction).toEqual({ type: 'none' });
  });

  it('OVERDUE stays pending (payments cancels it), RECEIVED and CONFIRMED are paid on their payment date, a removed one is canceled', () => {
    expect(toProviderCharge({ ...boleto, status: 'OVERDUE' }, { boleto: field })).toMatchObject({ status: 'pending', nextAction: { type: 'boleto' } });
    for (const status of ['RECEIVED', 'CONFIRMED'] as const) {
      const paid = toProviderCharge({ ...boleto, status, paymentDate: '2025-03-12', clientPaymentDate: '2025-03-12' });
      expect(paid).toMatchObject({ status: 'paid', amountPaid: 199_007, nextAction: { type: 'none' }, paidAt: new Date('2025-03-12T03:00:00Z') });
      expect(paid.expiresAt).toBeUndefined();
    }
    expect(toProviderCharge({ ...boleto, deleted: true }, { boleto: field })).toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
  });

  it('needs the CPF/CNPJ, refused on customer.document', () => {
    expect(() => buildCustomerRequest({ name: 'Sem Documento' })).toThrow(expect.objectContaining({ param: expect.objectContaining({ name: 'customer.document', publicMessage: expect.stringContaining('CPF ou CNPJ') }) }));
  });
});

describe('error table', () => {
  const body = fixture<unknown>('error-invalid-value.json');
  it.each([
    [400, body, 'rejected', 'provider_rejected'],
    [400, { errors: [{ code: 'invalid_action', description: 'conta bloqueada' }] }, 'not_created', 'provider_error'],
    [401, { errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }] }, 'invalid_credentials', 'invalid_credentials'],
    [403, undefined, 'invalid_credentials', 'invalid_credentials'],
    [404, { errors: [{ code: 'not_found', description: 'x' }] }, 'not_found', 'not_found'],
    [422, { errors: [{ code: 'something_new', description: 'x' }] }, 'rejected', 'provider_rejected'],
  ])('HTTP %i %j → %s/%s', (status, answer, kind, code) => {
    const error = providerErrorFor(status, answer, 'test');
    expect({ kind: error.kind, code: error.normalizedCode, status: error.httpStatus }).toEqual({ kind, code, status });
  });

  it('names the code and description in the message', () => {
    expect(providerErrorFor(400, body, 'create payment').message).toBe('asaas create payment: HTTP 400 invalid_value: The value field must be informed');
    expect(Object.keys(ASAAS_ERROR_TABLE)).toContain('invalid_customer');
  });
});

describe('webhook body and token', () => {
  it('names the payment of a PAYMENT_* event and keys it by the event id', () => {
    expect(parseAsaasWebhookBody(raw('webhook-payment-received.json'))).toEqual({
      kind: 'event',
      eventId: 'evt_05b708f961d739ea7eba7e4db318f621&368604920',
      event: 'PAYMENT_RECEIVED',
      paymentIds: ['pay_080225913252'],
      // The payment as sent, for the chargeback it may carry (asaas.chargebacks.ts).
      payment: expect.objectContaining({ id: 'pay_080225913252', status: 'RECEIVED' }),
    });
  });

  it('accepts events about other resources without naming a charge', () => {
    expect(parseAsaasWebhookBody(raw('webhook-transfer-done.json'))).toMatchObject({ kind: 'event', event: 'TRANSFER_DONE', paymentIds: [] });
  });

  it.each(['not json', '[]', '{"event":"PAYMENT_RECEIVED","payment":{"id":"pay_1"}}', '{"id":"evt_1","event":"PAYMENT_RECEIVED"}', '{"id":"evt_1","payment":{"id":"p"}}'])(
    'refuses %s as malformed',
    (text) => expect(parseAsaasWebhookBody(Buffer.from(text))).toEqual({ kind: 'malformed' }),
  );

  it('compares tokens in constant time and generates Asaas-acceptable ones', () => {
    const token = newAuthToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(newAuthToken()).not.toBe(token);
    expect(sameSecret(token, token)).toBe(true);
    expect(sameSecret(`${token}x`, token)).toBe(false);
    expect(sameSecret(undefined, token)).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});

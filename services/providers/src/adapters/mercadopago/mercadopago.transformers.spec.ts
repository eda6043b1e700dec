import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declineReason } from '../../domain/card-declines';
import type { CreateChargeInput, WebhookRequest } from '../provider-adapter';
import {
  buildBoletoRequest,
  buildCardRequest,
  buildCardTokenRequest,
  buildPixRequest,
  centsToReaisLiteral,
  collectorFeeCents,
  formatMercadoPagoDate,
  idempotencyHeaderFor,
  identificationFor,
  mapPaymentStatus,
  notificationUrlFor,
  reaisToCents,
  serializePaymentRequest,
  serializePixRequest,
  toProviderCharge,
  type MercadoPagoPayment,
  type MercadoPagoStatus,
} from './mercadopago.transformers';
import { MERCADOPAGO_CAUSE_TABLE, providerErrorFor } from './mercadopago.errors';
import { computeSignature, parseMercadoPagoWebhook, parseSignatureHeader, signatureManifest } from './mercadopago.webhook';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;
const rawFixture = (name: string): Buffer => readFileSync(join(__dirname, 'fixtures', name));

const input = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => ({
  paymentId: 'pay_01',
  method: 'pix',
  amount: 199_007,
  customer: { name: 'Maria Aparecida Souza', email: 'maria@example.com', document: '529.982.247-25' },
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
  ])('%i cents is %s reais and back', (cents, literal) => {
    expect(centsToReaisLiteral(cents)).toBe(literal);
    // As Mercado Pago answers it: a JSON number, parsed by JSON.parse.
    expect(reaisToCents(JSON.parse(literal) as number)).toBe(cents);
    expect(reaisToCents(literal)).toBe(cents);
  });

  it('reads amounts with fewer decimals and as strings', () => {
    expect(reaisToCents(100)).toBe(10_000);
    expect(reaisToCents(19.7)).toBe(1_970);
    expect(reaisToCents('24.5')).toBe(2_450);
  });

  it('refuses what is not positive integer cents, or not an amount', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => centsToReaisLiteral(bad)).toThrow(RangeError);
    for (const bad of [0.001, -1, 1e21, '1,00', '12.345', 'abc']) expect(() => reaisToCents(bad)).toThrow(RangeError);
  });

  it('writes transaction_amount as a literal from integer math, never a float', () => {
    const text = serializePixRequest(buildPixRequest(input({ amount: 435 }), 'https://h/x', new Date()), 435);
    expect(text.startsWith('{"transaction_amount":4.35,')).toBe(true);
    expect((JSON.parse(text) as { transaction_amount: number }).transaction_amount).toBe(4.35);
  });
});

describe('Pix request', () => {
  const now = new Date('2025-03-10T14:00:00.000Z');

  it('builds the documented body', () => {
    const body = buildPixRequest(input(), 'https://h/webhooks/mp?hmac=x&source_news=webhooks', now);
    expect(body).toEqual({
      payment_method_id: 'pix',
      payer: { email: 'maria@example.com', first_name: 'Maria', last_name: 'Aparecida Souza', identification: { type: 'CPF', number: '52998224725' } },
      description: 'Pedido 4411',
      date_of_expiration: '2025-03-10T12:00:00.000-03:00',
      notification_url: 'https://h/webhooks/mp?hmac=x&source_news=webhooks',
      external_reference: 'pay_01',
      metadata: { order: '4411' },
    });
  });

  it("sends the buyer's IP in additional_info.ip_address when known", () => {
    const body = buildPixRequest(input({ customer: { name: 'Maria', email: 'maria@example.com', ip: '203.0.113.7' } }), 'https://h', now);
    expect(body.additional_info).toEqual({ ip_address: '203.0.113.7' });
    expect(buildPixRequest(input(), 'https://h', now).additional_info).toBeUndefined();
  });

  it('requires the payer e-mail (Mercado Pago does for Pix)', () => {
    expect(() => buildPixRequest(input({ customer: { name: 'Maria' } }), 'https://h', now)).toThrow(RangeError);
  });

  it('clamps the expiry into 30 minutes..30 days', () => {
    const short = buildPixRequest(input({ expiresInSeconds: 60 }), 'https://h', now);
    expect(Date.parse(short.date_of_expiration) - now.getTime()).toBe(31 * 60 * 1000);
    const long = buildPixRequest(input({ expiresInSeconds: 90 * 86_400 }), 'https://h', now);
    expect(Date.parse(long.date_of_expiration) - now.getTime()).toBe(30 * 86_400_000 - 60_000);
  });

  it('sends identification only for a valid CPF or CNPJ', () => {
    expect(identificationFor('11.222.333/0001-81')).toEqual({ type: 'CNPJ', number: '11222333000181' });
    expect(identificationFor('111.111.111-11')).toBeUndefined();
    expect(identificationFor('52998224724')).toBeUndefined();
    expect(identificationFor(undefined)).toBeUndefined();
  });

  it('keeps short keys as they are and digests the others, deterministically', () => {
    expect(idempotencyHeaderFor('pay_01:acc_01')).toBe('pay_01:acc_01');
    const long = 'x'.repeat(200);
    expect(idempotencyHeaderFor(long)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyHeaderFor(long)).toBe(idempotencyHeaderFor(long));
    expect(idempotencyHeaderFor('pedido nº 1')).not.toBe('pedido nº 1');
  });

  it('asks for Webhooks-format notifications only and keeps our secret', () => {
    expect(notificationUrlFor('https://api.example/webhooks/mercadopago/acc_1?hmac=abc')).toBe(
      'https://api.example/webhooks/mercadopago/acc_1?hmac=abc&source_news=webhooks',
    );
  });

  it('formats dates with the Brazilian offset', () => {
    expect(formatMercadoPagoDate(new Date('2025-03-10T14:02:11.482Z'))).toBe('2025-03-10T11:02:11.482-03:00');
  });
});

describe('payment → charge', () => {
  it('maps a pending Pix with its QR code and expiry', () => {
    const charge = toProviderCharge(fixture<MercadoPagoPayment>('payment-pix-pending.json'));
    expect(charge).toMatchObject({ providerPaymentId: '1327410519', status: 'pending', amount: 199_007, amountPaid: 0 });
    expect(charge.nextAction).toMatchObject({ type: 'pix_qr', qrCodeBase64: 'iVBORw0KGgoAAAANSUhEUgAABWQAAAVkAQAAAAB79iscAAAN' });
    expect(charge.nextAction.qrCode).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(charge.expiresAt?.toISOString()).toBe('2025-03-11T14:02:11.000Z');
    expect(charge.providerFee).toBeUndefined();
  });

  it('maps an approved Pix with the fee, the paid time and the end-to-end id', () => {
    const charge = toProviderCharge(fixture<MercadoPagoPayment>('payment-pix-approved.json'));
    expect(charge).toMatchObject({ status: 'paid', amount: 199_007, amountPaid: 199_007, providerFee: 1_970, nextAction: { type: 'none' } });
    expect(charge.paidAt?.toISOString()).toBe('2025-03-10T14:05:42.000Z');
    expect(charge.endToEndId).toBe('E10573521202503101405aB3dE5fG7hJ');
  });

  it('maps an expired Pix as canceled/expired', () => {
    expect(toProviderCharge(fixture<MercadoPagoPayment>('payment-pix-cancelled-expired.json'))).toMatchObject({
      status: 'canceled',
      failureCode: 'expired',
      nextAction: { type: 'none' },
    });
  });

  it('maps every documented status', () => {
    const expected: Record<MercadoPagoStatus, string> = {
      pending: 'pending',
      in_process: 'pending',
      authorized: 'pending',
      approved: 'paid',
      in_mediation: 'paid',
      refunded: 'paid',
      charged_back: 'paid',
      rejected: 'failed',
      cancelled: 'canceled',
    };
    for (const [status, ours] of Object.entries(expected)) expect(mapPaymentStatus(status as MercadoPagoStatus, '').status).toBe(ours);
    expect(mapPaymentStatus('rejected', 'cc_rejected_high_risk')).toEqual({ status: 'failed', failureCode: 'card_declined', failureReason: declineReason('card_declined') });
    expect(mapPaymentStatus('rejected', 'cc_rejected_insufficient_amount')).toMatchObject({ failureCode: 'insufficient_funds', failureReason: expect.stringContaining('insuficiente') });
    expect(mapPaymentStatus('rejected', 'cc_rejected_bad_filled_date')).toMatchObject({ failureCode: 'expired_card' });
    expect(mapPaymentStatus('rejected', 'cc_rejected_bad_filled_security_code')).toMatchObject({ failureCode: 'incorrect_cvc' });
    expect(mapPaymentStatus('rejected', 'cc_rejected_something_new')).toMatchObject({ failureCode: 'card_declined' });
    // Not a card refusal: Mercado Pago's own detail stays the code.
    expect(mapPaymentStatus('rejected', 'rejected_by_regulations')).toEqual({ status: 'failed', failureCode: 'rejected_by_regulations' });
    expect(() => mapPaymentStatus('bogus' as MercadoPagoStatus, '')).toThrow('unhandled value');
  });

  it('counts only the fees the seller pays', () => {
    expect(collectorFeeCents([{ type: 'mercadopago_fee', amount: 0.99, fee_payer: 'collector' }, { type: 'financing_fee', amount: 3, fee_payer: 'payer' }])).toBe(99);
    expect(collectorFeeCents([])).toBeUndefined();
  });
});

describe('error table', () => {
  const kindOf = (status: number, body: unknown) => {
    const error = providerErrorFor(status, body, 'op');
    return { kind: error.kind, code: error.normalizedCode };
  };

  it('classifies the documented answers', () => {
    expect(kindOf(404, fixture('error-payment-not-found.json'))).toEqual({ kind: 'not_found', code: 'not_found' });
    expect(kindOf(401, fixture('error-unauthorized.json'))).toEqual({ kind: 'invalid_credentials', code: 'invalid_credentials' });
    expect(kindOf(400, fixture('error-idempotency-key-missing.json'))).toEqual({ kind: 'rejected', code: 'provider_rejected' });
    expect(kindOf(400, fixture('error-invalid-payer-email.json'))).toEqual({ kind: 'rejected', code: 'provider_rejected' });
  });

  it('classifies by status when no cause is known (429 and 5xx belong to the wire table)', () => {
    expect(kindOf(403, {})).toEqual({ kind: 'invalid_credentials', code: 'invalid_credentials' });
    expect(kindOf(423, {})).toEqual({ kind: 'ambiguous', code: 'provider_error' });
    expect(kindOf(422, {})).toEqual({ kind: 'rejected', code: 'provider_rejected' });
  });

  it('lets account-level causes fail over and input causes not', () => {
    expect(MERCADOPAGO_CAUSE_TABLE['13253']).toMatchObject({ kind: 'not_created', retryElsewhere: true });
    expect(MERCADOPAGO_CAUSE_TABLE['4037']).toMatchObject({ kind: 'rejected', retryElsewhere: false });
    expect(kindOf(400, { status: 400, cause: [{ code: 7, description: 'Unauthorized use of live credentials' }] })).toEqual({
      kind: 'invalid_credentials',
      code: 'invalid_credentials',
    });
  });

  it('names the error without leaking anything but the answer', () => {
    expect(providerErrorFor(404, fixture('error-payment-not-found.json'), 'get payment').message).toBe(
      'mercadopago get payment: HTTP 404 not_found [2000]: Payment not found',
    );
  });
});

describe('webhook signature', () => {
  const SECRET = 'whsec_mp_fixture';
  const REQUEST_ID = 'bb56a2f1-6aae-46ac-982e-9dcd3581d08e';
  const TS = '1742505638683';
  const V1 = 'e81d0b494cdf4167d1885ff43e83285a389c011d3e4b9bb66d885649d23ccbc0';
  const signed = (overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
    subPath: '',
    query: { hmac: 'ours', source_news: 'webhooks', 'data.id': '1327410519', type: 'payment' },
    headers: { 'x-signature': `ts=${TS},v1=${V1}`, 'x-request-id': REQUEST_ID, 'content-type': 'application/json' },
    rawBody: rawFixture('webhook-payment-updated.json'),
    ...overrides,
  });
  const options = { secret: SECRET, urlSecret: 'ours', nowMs: Number(TS) + 2_000 };

  it('matches the known vectors (ours and the official SDK’s, whose data.id is lower-cased)', () => {
    expect(computeSignature(SECRET, '1327410519', REQUEST_ID, TS)).toBe(V1);
    expect(computeSignature('your_secret_key_here', 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', '2066ca19-c6f1-498a-be75-1923005edd06', TS)).toBe(
      '633f91233312dd391ec75fa0bea539cfc2d6c4918873305b84a96cc1c58db71c',
    );
    expect(signatureManifest(undefined, undefined, '1')).toBe('ts:1;');
    expect(parseSignatureHeader(` v1=${V1.toUpperCase()} , ts=${TS}`)).toEqual({ ts: TS, v1: V1 });
    expect(parseSignatureHeader('garbage')).toBeUndefined();
  });

  it('accepts a genuine notification, keyed by its notification id', () => {
    expect(parseMercadoPagoWebhook(signed(), options)).toEqual({
      ok: true,
      providerPaymentIds: ['1327410519'],
      eventKey: 'mercadopago:notification:120981234567',
    });
  });

  it('rejects forged, tampered, replayed and unsigned ones', () => {
    const unauthenticated = { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    expect(parseMercadoPagoWebhook(signed(), { ...options, secret: 'another' })).toEqual(unauthenticated);
    expect(parseMercadoPagoWebhook(signed(), { ...options, secret: undefined })).toEqual(unauthenticated);
    expect(parseMercadoPagoWebhook(signed({ query: { 'data.id': '1327410520' } }), options)).toEqual(unauthenticated);
    expect(parseMercadoPagoWebhook(signed({ headers: { 'x-request-id': REQUEST_ID } }), options)).toEqual(unauthenticated);
    expect(parseMercadoPagoWebhook(signed(), { ...options, nowMs: Number(TS) + 301_000 })).toEqual(unauthenticated);
    expect(parseMercadoPagoWebhook(signed({ query: { 'data.id': '1327410519', hmac: 'guess' } }), options)).toEqual(unauthenticated);
    // The body is not signed: one naming another payment than the signed data.id was altered.
    const altered = Buffer.from(rawFixture('webhook-payment-updated.json').toString().replace('"1327410519"', '"999"'));
    expect(parseMercadoPagoWebhook(signed({ rawBody: altered }), options)).toEqual(unauthenticated);
  });

  it('accepts a stale one when the tolerance is switched off', () => {
    expect(parseMercadoPagoWebhook(signed(), { ...options, nowMs: Number(TS) + 86_400_000, toleranceSeconds: 0 })).toMatchObject({ ok: true });
  });

  it('rejects a signed but malformed body with 400', () => {
    expect(parseMercadoPagoWebhook(signed({ rawBody: Buffer.from('not json') }), options)).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
    expect(parseMercadoPagoWebhook(signed({ rawBody: Buffer.from('{"data":{"id":"1327410519"}}') }), options)).toMatchObject({ reason: 'malformed' });
  });

  it('answers events about other resources with no charges', () => {
    const id = 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3';
    const body = Buffer.from(JSON.stringify({ type: 'order', action: 'order.processed', data: { id }, id: 7 }));
    const v1 = computeSignature(SECRET, id, REQUEST_ID, TS);
    const request = signed({ query: { 'data.id': id }, headers: { 'x-signature': `ts=${TS},v1=${v1}`, 'x-request-id': REQUEST_ID }, rawBody: body });
    expect(parseMercadoPagoWebhook(request, options)).toEqual({ ok: true, providerPaymentIds: [], eventKey: 'mercadopago:notification:7' });
  });
});

describe('boleto and card requests', () => {
  const address = { street: 'Rua das Flores', number: '100', neighborhood: 'Centro', city: 'São Paulo', state: 'sp', zip: '01001-000' };
  const base: CreateChargeInput = {
    paymentId: 'pay_1',
    method: 'boleto',
    amount: 15_000,
    customer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com', address },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: 'k1',
  };

  it('a boleto is bolbradesco with the payer identification and address, due at the end of the due day', () => {
    const request = buildBoletoRequest(base, 'https://hooks.example/mp', new Date('2026-03-10T15:00:00Z'));
    expect(request.payment_method_id).toBe('bolbradesco');
    expect(request.payer.identification).toEqual({ type: 'CPF', number: '52998224725' });
    expect(request.payer.address).toEqual({ zip_code: '01001000', street_name: 'Rua das Flores', street_number: '100', neighborhood: 'Centro', city: 'São Paulo', federal_unit: 'SP' });
    expect(request.date_of_expiration).toBe('2026-03-13T23:59:59.000-03:00');
    expect(serializePaymentRequest(request, 15_000)).toMatch(/^\{"transaction_amount":150\.00?,/);
  });

  it('a boleto without document or address is refused before any request', () => {
    expect(() => buildBoletoRequest({ ...base, customer: { ...base.customer, document: undefined } }, 'https://h', new Date())).toThrow('identification');
    expect(() => buildBoletoRequest({ ...base, customer: { ...base.customer, address: undefined } }, 'https://h', new Date())).toThrow('address');
  });

  it('a vault card becomes a card_tokens body and a payment with the token, brand and installments', () => {
    const card = { number: '5031433215406351', expMonth: 11, expYear: 2030, cvc: '123', holderName: 'APRO', brand: 'mastercard' };
    expect(buildCardTokenRequest(card, '52998224725')).toEqual({
      card_number: '5031433215406351',
      expiration_month: 11,
      expiration_year: 2030,
      security_code: '123',
      cardholder: { name: 'APRO', identification: { type: 'CPF', number: '52998224725' } },
    });
    const request = buildCardRequest({ ...base, method: 'card', card: { token: '', vaultCard: card, installments: 3 } }, 'tok1', 'mastercard', 'https://h');
    expect(request).toMatchObject({ payment_method_id: 'master', token: 'tok1', installments: 3, payer: { email: 'maria@example.com' } });
    expect(JSON.stringify(request)).not.toContain('5031433215406351');
    expect(() => buildCardRequest({ ...base, method: 'card' }, 'tok1', 'discover', 'https://h')).toThrow('discover');
  });

  it('a pending boleto payment answers its line and PDF as next action', () => {
    const charge = toProviderCharge({
      id: 1,
      status: 'pending',
      status_detail: 'pending_waiting_payment',
      payment_method_id: 'bolbradesco',
      transaction_amount: 150,
      transaction_details: { digitable_line: '23790000000000000000000000000000000000000000000', external_resource_url: 'https://mp/boleto.pdf' },
    });
    expect(charge.nextAction).toEqual({ type: 'boleto', digitableLine: '23790000000000000000000000000000000000000000000', url: 'https://mp/boleto.pdf' });
  });
});

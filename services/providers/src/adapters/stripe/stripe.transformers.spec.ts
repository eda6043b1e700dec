import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderError, type CreateChargeInput } from '../provider-adapter';
import {
  buildBoletoIntentParams,
  buildCardIntentParams,
  buildPixIntentParams,
  mapIntentStatus,
  metadataFor,
  stripeIdempotencyKey,
  toProviderCharge,
  type StripeIntentStatus,
  type StripePaymentIntent,
} from './stripe.transformers';
import { STRIPE_ERROR_TABLE, declinedCharge, providerErrorFor, ruleForHttpError, unknownCardToken } from './stripe.errors';
import { encodeForm } from './stripe.form-encoding';
import { parseSignatureHeader, parseStripeEvent, signatureHeaderFor, verifyStripeSignature } from './stripe.webhook';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;
const rawFixture = (name: string): Buffer => readFileSync(join(__dirname, 'fixtures', name));

const input = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => ({
  paymentId: 'pay_01',
  method: 'pix',
  amount: 19_900,
  customer: { name: 'Maria Aparecida Souza', email: 'maria@example.com' },
  expiresInSeconds: 3600,
  description: 'Pedido 4411',
  metadata: { order_id: '4411' },
  idempotencyKey: 'pay_01:acc_01',
  ...overrides,
});

describe('encodeForm', () => {
  it('writes nested objects and arrays in bracket notation, values percent-encoded', () => {
    expect(encodeForm({ amount: 1990, confirm: true, payment_method_types: ['pix'], metadata: { 'order id': 'a&b=c' } })).toBe(
      'amount=1990&confirm=true&payment_method_types[]=pix&metadata[order%20id]=a%26b%3Dc',
    );
  });

  it('skips undefined values', () => {
    expect(encodeForm({ a: 'x', b: undefined, c: { d: undefined } })).toBe('a=x');
  });
});

describe('buildPixIntentParams', () => {
  it('builds a confirmed Pix PaymentIntent in centavos, as documented', () => {
    expect(encodeForm(buildPixIntentParams(input()))).toBe(
      [
        'amount=19900',
        'currency=brl',
        'payment_method_types[]=pix',
        'payment_method_data[type]=pix',
        'payment_method_data[billing_details][name]=Maria%20Aparecida%20Souza',
        'payment_method_data[billing_details][email]=maria%40example.com',
        'payment_method_options[pix][expires_after_seconds]=3600',
        'confirm=true',
        'description=Pedido%204411',
        'metadata[order_id]=4411',
        'metadata[orquestra_payment_id]=pay_01',
        'expand[]=latest_charge.balance_transaction',
      ].join('&'),
    );
  });

  it('keeps the amount in integer centavos, untouched', () => {
    for (const cents of [1, 29, 110, 435, 199_007, 99_999_999]) expect(buildPixIntentParams(input({ amount: cents }))['amount']).toBe(cents);
  });

  it('refuses amounts that are not positive integers', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => buildPixIntentParams(input({ amount: bad }))).toThrow(RangeError);
  });

  it('clamps the expiry to Stripe’s 10..1 209 600 seconds', () => {
    const seconds = (s: number) => (buildPixIntentParams(input({ expiresInSeconds: s }))['payment_method_options'] as { pix: { expires_after_seconds: number } }).pix.expires_after_seconds;
    expect(seconds(1)).toBe(10);
    expect(seconds(86_400)).toBe(86_400);
    expect(seconds(10_000_000)).toBe(1_209_600);
  });

  it('leaves billing details out when there is neither name nor e-mail', () => {
    expect(buildPixIntentParams(input({ customer: { name: ' ' } }))['payment_method_data']).toEqual({ type: 'pix' });
  });
});

describe('buildCardIntentParams', () => {
  it('confirms a card PaymentIntent with the given PaymentMethod', () => {
    expect(encodeForm(buildCardIntentParams(input({ method: 'card', metadata: {} }), 'pm_card_visa'))).toBe(
      'amount=19900&currency=brl&payment_method_types[]=card&payment_method=pm_card_visa&confirm=true&description=Pedido%204411&metadata[orquestra_payment_id]=pay_01&expand[]=latest_charge.balance_transaction',
    );
  });
});

describe('buildCardIntentParams installments', () => {
  it('asks for a fixed-count monthly plan only above 1 installment', () => {
    expect(encodeForm(buildCardIntentParams(input({ method: 'card', metadata: {}, card: { token: 'pm_card_visa', installments: 6 } }), 'pm_card_visa'))).toContain(
      'payment_method_options[card][installments][plan][count]=6&payment_method_options[card][installments][plan][interval]=month&payment_method_options[card][installments][plan][type]=fixed_count',
    );
    expect(encodeForm(buildCardIntentParams(input({ method: 'card', card: { token: 'pm_card_visa', installments: 1 } }), 'pm_card_visa'))).not.toContain('installments');
  });
});

describe('buildBoletoIntentParams', () => {
  const address = { street: 'Avenida Paulista', number: '1578', complement: 'Conjunto 12', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310200' };
  const customer = { name: 'Maria Aparecida Souza', email: 'maria@example.com', document: '12345678909', address };

  it('sends tax_id, name, e-mail and the BR address, due after the given days', () => {
    const form = encodeForm(buildBoletoIntentParams(input({ method: 'boleto', metadata: {}, customer }), 3));
    expect(form).toContain('payment_method_types[]=boleto');
    expect(form).toContain('payment_method_data[type]=boleto&payment_method_data[boleto][tax_id]=12345678909');
    expect(form).toContain('payment_method_data[billing_details][address][line1]=Avenida%20Paulista%2C%201578');
    expect(form).toContain('[line2]=Conjunto%2012%20-%20Bela%20Vista');
    expect(form).toContain('[postal_code]=01310200&payment_method_data[billing_details][address][country]=BR');
    expect(form).toContain('payment_method_options[boleto][expires_after_days]=3&confirm=true');
  });

  it.each([
    ['document', { ...customer, document: undefined }],
    ['address', { ...customer, address: undefined }],
    ['e-mail', { ...customer, email: undefined }],
  ])('throws without the customer %s', (_what, partial) => {
    expect(() => buildBoletoIntentParams(input({ method: 'boleto', customer: partial }), 3)).toThrow(RangeError);
  });
});

describe('boleto answers and foreign card tokens', () => {
  it('maps boleto_display_details to a boleto next action with the line as digits and the voucher link', () => {
    expect(toProviderCharge(fixture<StripePaymentIntent>('payment-intent-boleto-requires-action.json'))).toMatchObject({
      status: 'pending',
      nextAction: { type: 'boleto', digitableLine: '00190500954014481606906809350314337370000000100', url: 'https://payments.stripe.com/boleto/voucher/test_YWNjdF8xTm9PdVh' },
      expiresAt: new Date(1764212399 * 1000),
    });
  });

  it('names card.token when Stripe does not know the PaymentMethod, and nothing else', () => {
    const missing = { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: "No such PaymentMethod: 'pm_x'" } };
    expect(unknownCardToken(400, missing)?.param?.name).toBe('card.token');
    expect(unknownCardToken(400, { error: { ...missing.error, param: 'customer' } })).toBeUndefined();
    expect(unknownCardToken(404, missing)).toBeUndefined();
  });
});

describe('metadataFor', () => {
  it('adds the payment id, sorts, and cuts to Stripe’s limits', () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'v']));
    const metadata = metadataFor(input({ metadata: { ...many, ['x'.repeat(45)]: 'y'.repeat(600) } }));
    expect(Object.keys(metadata)).toHaveLength(50);
    expect(metadata['k00']).toBe('v');
    expect(metadataFor(input({ metadata: { ['x'.repeat(45)]: 'y'.repeat(600) } }))['x'.repeat(40)]).toHaveLength(500);
    expect(metadataFor(input({ metadata: {} }))).toEqual({ orquestra_payment_id: 'pay_01' });
    expect(metadataFor(input({ metadata: { 'a[b]': '1', '[]': '2' } }))).toEqual({ ab: '1', orquestra_payment_id: 'pay_01' });
  });
});

describe('stripeIdempotencyKey', () => {
  it('passes keys Stripe accepts and digests longer ones stably', () => {
    expect(stripeIdempotencyKey('pay_01:acc_01')).toBe('pay_01:acc_01');
    const long = 'k'.repeat(300);
    expect(stripeIdempotencyKey(long)).toBe(stripeIdempotencyKey(long));
    expect(stripeIdempotencyKey(long).length).toBeLessThanOrEqual(255);
  });
});

describe('mapIntentStatus', () => {
  it.each<[StripeIntentStatus, string]>([
    ['requires_payment_method', 'pending'],
    ['requires_confirmation', 'pending'],
    ['requires_action', 'pending'],
    ['processing', 'pending'],
    ['requires_capture', 'pending'],
    ['canceled', 'canceled'],
    ['succeeded', 'paid'],
  ])('%s → %s', (status, ours) => {
    expect(mapIntentStatus({ status, last_payment_error: null }).status).toBe(ours);
  });

  it('an expired Pix attempt is canceled/expired; a decline is failed with its decline code', () => {
    expect(mapIntentStatus(fixture<StripePaymentIntent>('payment-intent-pix-expired.json'))).toMatchObject({ status: 'canceled', failureCode: 'expired' });
    expect(mapIntentStatus({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'lost_card', message: 'Your card was declined.' } })).toEqual({
      status: 'failed',
      failureCode: 'lost_card',
      failureReason: 'O cartão foi recusado pelo banco emissor. Peça ao comprador outro cartão ou outro método de pagamento.',
    });
  });

  it('throws on a status Stripe might add', () => {
    expect(() => mapIntentStatus({ status: 'requires_reauthorization' as StripeIntentStatus, last_payment_error: null })).toThrow('unhandled value');
  });
});

describe('toProviderCharge', () => {
  it('reads a Pix waiting for payment', () => {
    const charge = toProviderCharge(fixture('payment-intent-pix-requires-action.json'));
    expect(charge).toEqual({
      providerPaymentId: 'pi_3QxPixEzVBJFlm8c1A2b3C4d',
      status: 'pending',
      amount: 19_900,
      amountPaid: 0,
      nextAction: { type: 'pix_qr', qrCode: expect.stringMatching(/^000201/) as string },
      expiresAt: new Date(1_761_303_600_000),
    });
    expect(charge.nextAction.qrCodeBase64).toBeUndefined();
  });

  it('reads a paid Pix with its EndToEndId, payment time and fee', () => {
    expect(toProviderCharge(fixture('payment-intent-pix-succeeded.json'))).toEqual({
      providerPaymentId: 'pi_3QxPixEzVBJFlm8c1A2b3C4d',
      status: 'paid',
      amount: 19_900,
      amountPaid: 19_900,
      nextAction: { type: 'none' },
      paidAt: new Date(1_761_300_900_000),
      endToEndId: 'E60746948202510241015AbCdEfGhIjK',
      providerFee: 237,
    });
  });

  it('reads canceled and expired intents', () => {
    expect(toProviderCharge(fixture('payment-intent-canceled.json'))).toMatchObject({ status: 'canceled', nextAction: { type: 'none' } });
    expect(toProviderCharge(fixture('payment-intent-pix-expired.json'))).toMatchObject({ status: 'canceled', failureCode: 'expired', amountPaid: 0 });
  });
});

describe('errors', () => {
  const cases: [string, number, string, ProviderError['kind'], ProviderError['normalizedCode']][] = [
    ['invalid key', 401, 'error-invalid-api-key.json', 'invalid_credentials', 'invalid_credentials'],
    ['unknown intent', 404, 'error-resource-missing.json', 'not_found', 'not_found'],
    ['same key, other parameters', 400, 'error-idempotency-mismatch.json', 'rejected', 'provider_rejected'],
    ['unexpected state', 400, 'error-unexpected-state.json', 'rejected', 'provider_rejected'],
  ];
  it.each(cases)('%s (HTTP %i)', (_name, status, file, kind, code) => {
    const error = providerErrorFor(status, fixture(file), 'test');
    expect(error).toBeInstanceOf(ProviderError);
    expect({ kind: error.kind, code: error.normalizedCode, httpStatus: error.httpStatus }).toEqual({ kind, code, httpStatus: status });
  });

  it('classifies by status when the body is not Stripe’s (429 and 5xx belong to the wire table)', () => {
    expect(ruleForHttpError(403, {})).toMatchObject({ kind: 'invalid_credentials' });
    expect(ruleForHttpError(400, {})).toMatchObject({ kind: 'rejected', retryElsewhere: false });
  });

  it('fails over on account-level refusals, not on our own bad input', () => {
    expect(STRIPE_ERROR_TABLE['payment_method_unactivated']).toMatchObject({ kind: 'not_created', retryElsewhere: true });
    expect(STRIPE_ERROR_TABLE['parameter_unknown']).toMatchObject({ kind: 'rejected', retryElsewhere: false });
    expect(ruleForHttpError(409, { error: { type: 'invalid_request_error', code: 'idempotency_key_in_use' } })).toMatchObject({ kind: 'ambiguous' });
  });

  it('turns a 402 card decline into a failed charge, not an error', () => {
    expect(declinedCharge(402, fixture('error-card-declined.json'))).toMatchObject({
      providerPaymentId: 'pi_3QxCardEzVBJFlm8c0DeClNe1',
      status: 'failed',
      failureCode: 'insufficient_funds',
      failureReason: 'Saldo ou limite insuficiente no cartão. Peça ao comprador outro cartão ou outro método de pagamento.',
      amountPaid: 0,
    });
    expect(declinedCharge(400, fixture('error-card-declined.json'))).toBeUndefined();
    expect(declinedCharge(402, fixture('error-api-error.json'))).toBeUndefined();
  });
});

describe('webhook signature', () => {
  const secret = 'whsec_test_secret';
  const body = Buffer.from('{"id":"evt_1","object":"event"}');
  // HMAC-SHA256("whsec_test_secret", "1761300900.<body>"), computed independently (Python hmac).
  const known = '54dd85db6768f96e98f4110bd7077729eb31b1547117d7704934c6c29b5d1649';

  it('matches a known vector', () => {
    expect(signatureHeaderFor(secret, 1_761_300_900, body)).toBe(`t=1761300900,v1=${known}`);
    expect(verifyStripeSignature(body, `t=1761300900,v1=${known}`, secret, 1_761_300_900)).toBe('valid');
  });

  it('verifies a documented event fixture byte for byte', () => {
    const raw = rawFixture('event-payment-intent-succeeded.json');
    const header = 't=1761300900,v1=844c4a2707ab051409187424317dc932050e3c638d60c89840502dfa143ff6b4';
    expect(verifyStripeSignature(raw, header, 'whsec_wRNftLajMZNeslQOP6vEPm4iVx5NlZ6z', 1_761_301_000)).toBe('valid');
  });

  it('accepts any matching v1 among several and ignores v0', () => {
    const header = `t=1761300900,v1=${'0'.repeat(64)},v1=${known},v0=${known.replace(/./g, 'a')}`;
    expect(verifyStripeSignature(body, header, secret, 1_761_300_900)).toBe('valid');
    expect(verifyStripeSignature(body, `t=1761300900,v0=${known}`, secret, 1_761_300_900)).toBe('missing');
  });

  it('refuses forged, tampered, missing and replayed signatures', () => {
    expect(verifyStripeSignature(body, `t=1761300900,v1=${known}`, 'whsec_other', 1_761_300_900)).toBe('mismatch');
    expect(verifyStripeSignature(Buffer.from('{"id":"evt_2","object":"event"}'), `t=1761300900,v1=${known}`, secret, 1_761_300_900)).toBe('mismatch');
    expect(verifyStripeSignature(body, `t=1761300901,v1=${known}`, secret, 1_761_300_900)).toBe('mismatch');
    expect(verifyStripeSignature(body, undefined, secret, 1_761_300_900)).toBe('missing');
    expect(verifyStripeSignature(body, 'garbage', secret, 1_761_300_900)).toBe('missing');
    expect(verifyStripeSignature(body, `t=1761300900,v1=${known}`, '', 1_761_300_900)).toBe('missing');
    expect(verifyStripeSignature(body, `t=1761300900,v1=${known}`, secret, 1_761_300_900 + 300)).toBe('valid');
    expect(verifyStripeSignature(body, `t=1761300900,v1=${known}`, secret, 1_761_300_900 + 301)).toBe('outside_tolerance');
    expect(verifyStripeSignature(body, `t=1761300900,v1=${known}`, secret, 1_761_300_900 - 301)).toBe('outside_tolerance');
  });

  it('parses the header leniently about spaces and case', () => {
    expect(parseSignatureHeader(` t=5 , v1=${known.toUpperCase()} `)).toEqual({ timestamp: 5, signatures: [known] });
  });
});

describe('parseStripeEvent', () => {
  it('names the PaymentIntent of payment_intent.* and charge.* events', () => {
    expect(parseStripeEvent(rawFixture('event-payment-intent-succeeded.json'))).toEqual({
      kind: 'event',
      eventId: 'evt_3QxPixEzVBJFlm8c1EvEnT01',
      type: 'payment_intent.succeeded',
      paymentIntentIds: ['pi_3QxPixEzVBJFlm8c1A2b3C4d'],
    });
    expect(parseStripeEvent(rawFixture('event-charge-succeeded.json'))).toMatchObject({ paymentIntentIds: ['pi_3QxPixEzVBJFlm8c1A2b3C4d'] });
  });

  it('accepts events about other things with no charge', () => {
    expect(parseStripeEvent(rawFixture('event-account-updated.json'))).toMatchObject({ kind: 'event', paymentIntentIds: [] });
  });

  it('refuses bodies that are not events', () => {
    for (const bad of ['not json', '[]', 'null', '{"id":"evt_1"}', '{"id":"evt_1","object":"event","type":"x"}', '{"object":"event","type":"x","data":{"object":{}}}']) {
      expect(parseStripeEvent(Buffer.from(bad))).toEqual({ kind: 'malformed' });
    }
  });
});

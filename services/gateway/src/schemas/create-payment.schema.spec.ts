import { AppError } from '@orquestra/platform';
import type { ZodTypeAny } from 'zod';
import { parseOrThrow, type RequestSource } from '../validation/zod-issue.mapper';
import { CreatePaymentSchema, IdempotencyHeadersSchema } from './create-payment.schema';
import { ListEventsQuerySchema } from './list-events.schema';
import { ListPaymentsQuerySchema } from './list-payments.schema';

const VALID = { amount: 1990, customer: { name: 'Maria da Silva' } };

function failure(input: unknown, schema: ZodTypeAny = CreatePaymentSchema, source: RequestSource = 'body') {
  try {
    parseOrThrow(schema, input, source);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a validation failure');
}

const withCustomer = (customer: Record<string, unknown>) => ({ ...VALID, customer: { ...VALID.customer, ...customer } });
const address = { street: 'Av. Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'sp', zip: '01310-100' };

describe('CreatePayment schema', () => {
  describe('accepts and normalizes', () => {
    it('a minimal body (amount + customer name)', () => {
      expect(parseOrThrow(CreatePaymentSchema, VALID, 'body')).toEqual(VALID);
    });

    it('CPF and CNPJ with punctuation and valid check digits, stored as digits', () => {
      expect(parseOrThrow(CreatePaymentSchema, withCustomer({ document: '529.982.247-25' }), 'body').customer.document).toBe('52998224725');
      expect(parseOrThrow(CreatePaymentSchema, withCustomer({ document: '12.345.678/0001-95' }), 'body').customer.document).toBe(
        '12345678000195',
      );
    });

    it("the alphanumeric CNPJ (Receita Federal's example), in any case, stored upper case without punctuation", () => {
      expect(parseOrThrow(CreatePaymentSchema, withCustomer({ document: '12.ABC.345/01DE-35' }), 'body').customer.document).toBe('12ABC34501DE35');
      expect(parseOrThrow(CreatePaymentSchema, withCustomer({ document: '12abc34501de35' }), 'body').customer.document).toBe('12ABC34501DE35');
    });

    it('an address, with the state upper-cased and the CEP as digits', () => {
      const parsed = parseOrThrow(CreatePaymentSchema, withCustomer({ address }), 'body');
      expect(parsed.customer.address).toMatchObject({ state: 'SP', zip: '01310100' });
    });

    it('every field of the spec at its limits', () => {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(39, '0')}`, 'v'.repeat(500)]));
      const body = {
        method: 'pix',
        amount: 100_000_000_000,
        currency: 'BRL',
        description: 'd'.repeat(500),
        customer: { name: 'n'.repeat(200), email: 'a@b.com.br', document: '52998224725', phone: '+55 11 91234-5678', address, ip: '2001:db8::1' },
        expires_in_minutes: 43_200,
        metadata,
        tracking: { utm_source: 's'.repeat(500), fbclid: 'x', ttp: 'y' },
        provider_account_id: 'pa_1',
      };
      expect(() => parseOrThrow(CreatePaymentSchema, body, 'body')).not.toThrow();
    });
  });

  describe('missing fields → parameter_missing', () => {
    it('customer.name, with a Portuguese message naming the field', () => {
      expect(failure({ amount: 1990, customer: {} })).toEqual({
        code: 'parameter_missing',
        param: 'customer.name',
        message: 'O campo customer.name é obrigatório. Informe o nome do cliente.',
      });
    });

    it('customer', () => {
      expect(failure({ amount: 1990 })).toMatchObject({ code: 'parameter_missing', param: 'customer' });
    });

    it('amount', () => {
      expect(failure({ customer: { name: 'x' } })).toMatchObject({
        code: 'parameter_missing',
        param: 'amount',
        message: expect.stringContaining('O campo amount é obrigatório.'),
      });
    });

    it('a field of the address', () => {
      const { street: _street, ...rest } = address;
      expect(failure(withCustomer({ address: rest }))).toMatchObject({ code: 'parameter_missing', param: 'customer.address.street' });
    });
  });

  describe('amount', () => {
    it.each([0, -5])('%p → amount_too_small', (amount) => {
      expect(failure({ ...VALID, amount })).toMatchObject({
        code: 'amount_too_small',
        param: 'amount',
        message: expect.stringContaining('maior ou igual a 1'),
      });
    });

    it('"10" (a string) → parameter_invalid', () => {
      expect(failure({ ...VALID, amount: '10' })).toEqual({
        code: 'parameter_invalid',
        param: 'amount',
        message:
          'O campo amount deve ser um número (recebido: um texto). Informe o valor em centavos como número inteiro, por exemplo 1990 para R$ 19,90.',
      });
    });

    it('10.5 (not cents) → parameter_invalid', () => {
      expect(failure({ ...VALID, amount: 10.5 })).toMatchObject({
        code: 'parameter_invalid',
        param: 'amount',
        message: expect.stringContaining('deve ser um número inteiro'),
      });
    });

    it('above R$ 1 bilhão → parameter_invalid', () => {
      expect(failure({ ...VALID, amount: 100_000_000_001 })).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    });
  });

  describe('other fields → parameter_invalid with the dotted param', () => {
    it.each([
      ['method not in the enum', { ...VALID, method: 'crypto' }, 'method', 'deve ser um destes valores: pix, card, boleto'],
      ['currency other than BRL', { ...VALID, currency: 'USD' }, 'currency', 'deve ser "BRL"'],
      ['description over 500', { ...VALID, description: 'x'.repeat(501) }, 'description', 'no máximo 500 caracteres'],
      ['customer not an object', { ...VALID, customer: 'Maria' }, 'customer', 'deve ser um objeto'],
      ['empty customer.name', withCustomer({ name: '' }), 'customer.name', 'pelo menos 1 caractere'],
      ['customer.name over 200', withCustomer({ name: 'x'.repeat(201) }), 'customer.name', 'no máximo 200'],
      ['bad customer.email', withCustomer({ email: 'maria@' }), 'customer.email', 'e-mail válido'],
      ['customer.document of 10 digits', withCustomer({ document: '1234567890' }), 'customer.document', 'Informe 11 dígitos (CPF) ou 14 caracteres'],
      ['customer.document of 12 digits', withCustomer({ document: '123456789012' }), 'customer.document', 'CPF ou CNPJ inválido'],
      ['a CPF with a wrong check digit', withCustomer({ document: '529.982.247-24' }), 'customer.document', 'confira os dígitos verificadores'],
      ['a CPF of repeated digits', withCustomer({ document: '111.111.111-11' }), 'customer.document', 'confira os dígitos verificadores'],
      ['a CNPJ with a wrong check digit', withCustomer({ document: '11.222.333/0001-82' }), 'customer.document', 'confira os dígitos verificadores'],
      ['an alphanumeric CNPJ with a wrong check digit', withCustomer({ document: '12.ABC.345/01DE-36' }), 'customer.document', 'confira os dígitos verificadores'],
      ['letters in the check digits', withCustomer({ document: '12ABC34501DEAB' }), 'customer.document', 'CPF ou CNPJ inválido'],
      ['customer.phone with letters', withCustomer({ phone: 'call me' }), 'customer.phone', 'telefone'],
      ['customer.ip not an IP', withCustomer({ ip: '999.1.1.1' }), 'customer.ip', 'IP'],
      ['address.state of 3 letters', withCustomer({ address: { ...address, state: 'SPX' } }), 'customer.address.state', 'UF'],
      ['address.zip of 7 digits', withCustomer({ address: { ...address, zip: '0131010' } }), 'customer.address.zip', 'CEP com 8 dígitos'],
      ['expires_in_minutes 0', { ...VALID, expires_in_minutes: 0 }, 'expires_in_minutes', 'maior ou igual a 1'],
      ['expires_in_minutes over 30 days', { ...VALID, expires_in_minutes: 43_201 }, 'expires_in_minutes', 'menor ou igual a 43200'],
      ['provider_account_id empty', { ...VALID, provider_account_id: '' }, 'provider_account_id', 'pelo menos 1'],
      ['unknown top-level field', { ...VALID, amount_cents: 5 }, 'amount_cents', 'não existe'],
      ['unknown customer field', withCustomer({ cpf: '1' }), 'customer.cpf', 'não existe'],
      ['unknown tracking key', { ...VALID, tracking: { utm_foo: 'x' } }, 'tracking', 'utm_source, utm_medium'],
      ['tracking value over 500', { ...VALID, tracking: { gclid: 'g'.repeat(501) } }, 'tracking.gclid', 'no máximo 500'],
      ['card with both token and id', { ...VALID, method: 'card', card: { token: 't', id: 'card_1' } }, 'card', 'no máximo um entre card.token e card.id'],
      ['card.installments 0', { ...VALID, method: 'card', card: { token: 't', installments: 0 } }, 'card.installments', 'parcelas'],
      ['split with amount and percentage', { ...VALID, splits: [{ subaccount_id: 's', amount: 1, percentage: 1 }] }, 'splits[0]', 'exatamente um entre amount e percentage'],
      ['split percentage with 3 decimals', { ...VALID, splits: [{ subaccount_id: 's', percentage: 1.234 }] }, 'splits[0].percentage', 'múltiplo'],
      ['more than 20 splits', { ...VALID, splits: Array.from({ length: 21 }, () => ({ subaccount_id: 's', amount: 1 })) }, 'splits', 'no máximo 20 itens'],
    ])('%s', (_case, body, param, message) => {
      expect(failure(body)).toMatchObject({ code: 'parameter_invalid', param, message: expect.stringContaining(message) });
    });
  });

  describe('metadata → metadata_invalid', () => {
    it('more than 50 keys', () => {
      const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      expect(failure({ ...VALID, metadata })).toMatchObject({
        code: 'metadata_invalid',
        param: 'metadata',
        message: expect.stringContaining('no máximo 50 chaves'),
      });
    });

    it('a key over 40 characters', () => {
      const key = 'k'.repeat(41);
      expect(failure({ ...VALID, metadata: { [key]: 'v' } })).toMatchObject({
        code: 'metadata_invalid',
        param: `metadata.${key}`,
        message: expect.stringContaining('de 1 a 40 caracteres'),
      });
    });

    it('a value over 500 characters', () => {
      expect(failure({ ...VALID, metadata: { order: 'v'.repeat(501) } })).toMatchObject({
        code: 'metadata_invalid',
        param: 'metadata.order',
        message: expect.stringContaining('no máximo 500 caracteres'),
      });
    });

    it('a value that is not a string', () => {
      expect(failure({ ...VALID, metadata: { order: 42 } })).toMatchObject({
        code: 'metadata_invalid',
        param: 'metadata.order',
        message: expect.stringContaining('deve ser um texto'),
      });
    });

    it('metadata that is not an object', () => {
      expect(failure({ ...VALID, metadata: 'order=42' })).toMatchObject({ code: 'metadata_invalid', param: 'metadata' });
    });
  });

  it('reports only the first problem', () => {
    expect(failure({ amount: 0, customer: {}, foo: 1 })).toMatchObject({ code: 'amount_too_small', param: 'amount' });
  });

  it('refuses a body that is not an object, without a param', () => {
    expect(failure([VALID])).toMatchObject({ code: 'invalid_request', param: undefined });
    expect(failure(undefined)).toMatchObject({ code: 'invalid_request', param: undefined });
  });
});

describe('Idempotency-Key header', () => {
  it('accepts up to 255 visible characters, or nothing', () => {
    expect(parseOrThrow(IdempotencyHeadersSchema, { 'Idempotency-Key': 'k'.repeat(255) }, 'header')).toBeTruthy();
    expect(parseOrThrow(IdempotencyHeadersSchema, { 'Idempotency-Key': undefined }, 'header')).toEqual({});
  });

  it('refuses a longer one, naming the header', () => {
    expect(failure({ 'Idempotency-Key': 'k'.repeat(256) }, IdempotencyHeadersSchema, 'header')).toMatchObject({
      code: 'parameter_invalid',
      param: 'Idempotency-Key',
      message: expect.stringContaining('O cabeçalho Idempotency-Key deve ter no máximo 255 caracteres.'),
    });
  });

  it('refuses an empty one (a template that lost its variable must not lose idempotency silently)', () => {
    expect(failure({ 'Idempotency-Key': '' }, IdempotencyHeadersSchema, 'header')).toMatchObject({ code: 'parameter_invalid' });
  });
});

describe('list queries', () => {
  it('default limit 10 and coerce query strings', () => {
    expect(parseOrThrow(ListPaymentsQuerySchema, {}, 'query')).toEqual({ limit: 10 });
    expect(parseOrThrow(ListPaymentsQuerySchema, { limit: '100', status: 'succeeded', method: 'pix' }, 'query')).toEqual({
      limit: 100,
      status: 'succeeded',
      method: 'pix',
    });
  });

  it.each([
    [{ limit: '0' }, 'limit', 'O parâmetro limit deve ser maior ou igual a 1.'],
    [{ limit: '101' }, 'limit', 'menor ou igual a 100'],
    [{ limit: 'ten' }, 'limit', 'deve ser um número (recebido: um valor não numérico)'],
    [{ status: 'paid' }, 'status', 'requires_method, pending'],
    [{ search: 'maria' }, 'search', 'O parâmetro search não existe.'],
    [{ q: 'x'.repeat(201) }, 'q', 'no máximo 200'],
    [{ status: ['pending', 'failed'] }, 'status', 'deve ser um destes valores: requires_method, pending, processing'],
  ])('GET /v1/payments %p → parameter_invalid', (query, param, message) => {
    expect(failure(query, ListPaymentsQuerySchema, 'query')).toMatchObject({
      code: 'parameter_invalid',
      param,
      message: expect.stringContaining(message),
    });
  });

  it('GET /v1/events takes type, limit and starting_after', () => {
    expect(parseOrThrow(ListEventsQuerySchema, { type: 'payment.succeeded', starting_after: 'evt_1' }, 'query')).toEqual({
      type: 'payment.succeeded',
      starting_after: 'evt_1',
      limit: 10,
    });
    expect(failure({ limit: '500' }, ListEventsQuerySchema, 'query')).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });
});

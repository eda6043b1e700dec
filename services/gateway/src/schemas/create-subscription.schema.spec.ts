import { AppError } from '@orquestra/platform';
import type { ZodTypeAny } from 'zod';
import { parseOrThrow, type RequestSource } from '../validation/zod-issue.mapper';
import { CreateSubscriptionSchema, SUBSCRIPTION_FIELD_HINTS, SubscriptionIdempotencyHeadersSchema } from './create-subscription.schema';
import { ListSubscriptionsQuerySchema } from './list-subscriptions.schema';

const VALID = { customer: { name: 'Maria da Silva', document: '529.982.247-25' }, frequency: 'monthly', amount: 2990 };

function failure(input: unknown, schema: ZodTypeAny = CreateSubscriptionSchema, source: RequestSource = 'body') {
  try {
    parseOrThrow(schema, input, source, SUBSCRIPTION_FIELD_HINTS);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a validation failure');
}

describe('CreateSubscription schema', () => {
  it('accepts a minimal body, the document as digits', () => {
    expect(parseOrThrow(CreateSubscriptionSchema, VALID, 'body')).toEqual({ ...VALID, customer: { name: 'Maria da Silva', document: '52998224725' } });
  });

  it('accepts every field at its limits, a null amount (variable) and an address', () => {
    const body = {
      customer: {
        name: 'n'.repeat(140),
        document: '12.345.678/0001-95',
        email: 'a@b.com.br',
        address: { street: 'Av. Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' },
      },
      frequency: 'annually',
      amount: null,
      first_amount: 100_000_000_000,
      description: 'd'.repeat(35),
      start_date: '2026-12-01',
      end_date: '2030-12-01',
      retry: false,
      metadata: { plan: 'pro' },
      tracking: { utm_source: 's'.repeat(500) },
      provider_account_id: 'pa_1',
    };
    expect(() => parseOrThrow(CreateSubscriptionSchema, body, 'body')).not.toThrow();
  });

  it.each([
    ['customer', { frequency: 'monthly' }, 'parameter_missing', 'O campo customer é obrigatório.'],
    ['customer.document', { ...VALID, customer: { name: 'Maria' } }, 'parameter_missing', 'O campo customer.document é obrigatório.'],
    ['customer.name', { ...VALID, customer: { document: '52998224725' } }, 'parameter_missing', 'O campo customer.name é obrigatório.'],
    ['customer.document', { ...VALID, customer: { name: 'Maria', document: '123' } }, 'parameter_invalid', 'confira os dígitos verificadores'],
    ['customer.document', { ...VALID, customer: { name: 'Maria', document: '529.982.247-24' } }, 'parameter_invalid', 'CPF ou CNPJ inválido em customer.document'],
    ['customer.name', { ...VALID, customer: { name: 'n'.repeat(141), document: '52998224725' } }, 'parameter_invalid', 'no máximo 140'],
    ['customer.ip', { ...VALID, customer: { ...VALID.customer, ip: '1.2.3.4' } }, 'parameter_invalid', 'customer.ip não existe'],
    ['frequency', { ...VALID, frequency: undefined }, 'parameter_missing', 'O campo frequency é obrigatório. Use um destes valores: weekly'],
    ['frequency', { ...VALID, frequency: 'daily' }, 'parameter_invalid', 'weekly, monthly, quarterly, semiannually, annually'],
    ['amount', { ...VALID, amount: 0 }, 'amount_too_small', 'maior ou igual a 1'],
    ['amount', { ...VALID, amount: 19.9 }, 'parameter_invalid', 'centavos'],
    ['amount', { ...VALID, amount: 100_000_000_001 }, 'parameter_invalid', 'menor ou igual a 100000000000'],
    ['first_amount', { ...VALID, first_amount: '10' }, 'parameter_invalid', 'deve ser um número'],
    ['description', { ...VALID, description: 'd'.repeat(36) }, 'parameter_invalid', 'no máximo 35'],
    ['start_date', { ...VALID, start_date: '01/12/2026' }, 'parameter_invalid', 'AAAA-MM-DD'],
    ['end_date', { ...VALID, end_date: '2027-1-1' }, 'parameter_invalid', 'AAAA-MM-DD'],
    ['retry', { ...VALID, retry: 'sim' }, 'parameter_invalid', 'verdadeiro ou falso'],
    ['metadata.plan', { ...VALID, metadata: { plan: 1 } }, 'metadata_invalid', 'metadata.plan'],
    ['tracking', { ...VALID, tracking: { utm_x: 'a' } }, 'parameter_invalid', 'tracking.utm_x não é aceita'],
    ['provider_account_id', { ...VALID, provider_account_id: '' }, 'parameter_invalid', 'pelo menos 1'],
    ['interval', { ...VALID, interval: 'month' }, 'parameter_invalid', 'interval não existe'],
  ])('refuses %s with its code, param and a Portuguese message', (param, body, code, text) => {
    expect(failure(body)).toEqual({ code, param, message: expect.stringContaining(text) });
  });

  it('takes the Idempotency-Key header as POST /v1/payments does', () => {
    expect(parseOrThrow(SubscriptionIdempotencyHeadersSchema, { 'Idempotency-Key': 'k'.repeat(255) }, 'header')).toBeTruthy();
    expect(failure({ 'Idempotency-Key': 'k'.repeat(256) }, SubscriptionIdempotencyHeadersSchema, 'header')).toMatchObject({
      code: 'parameter_invalid',
      param: 'Idempotency-Key',
      message: expect.stringContaining('única por assinatura'),
    });
  });
});

describe('ListSubscriptions query', () => {
  it('filters by status with a page size default of 10', () => {
    expect(parseOrThrow(ListSubscriptionsQuerySchema, { status: 'active' }, 'query')).toEqual({ status: 'active', limit: 10 });
  });

  it('refuses an unknown status, a bad limit and an unknown parameter', () => {
    expect(failure({ status: 'paid' }, ListSubscriptionsQuerySchema, 'query')).toMatchObject({ code: 'parameter_invalid', param: 'status' });
    expect(failure({ limit: '101' }, ListSubscriptionsQuerySchema, 'query')).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    expect(failure({ method: 'pix' }, ListSubscriptionsQuerySchema, 'query')).toMatchObject({ code: 'parameter_invalid', param: 'method' });
  });
});

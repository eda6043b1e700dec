import { validateSubscriptionInput, type CreateSubscriptionInput } from './subscription-input';

const today = '2026-11-24';
const valid: CreateSubscriptionInput = {
  customer: { name: '  Maria da Silva ', document: '529.982.247-25' },
  frequency: 'monthly',
  amount: 2990,
};

const refusal = (input: CreateSubscriptionInput) => {
  const result = validateSubscriptionInput(input, today);
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
};

describe('POST /subscriptions domain rules', () => {
  it('fills the defaults: first_amount = amount, start today, no end, retry on, empty metadata', () => {
    expect(validateSubscriptionInput(valid, today)).toEqual({
      ok: true,
      value: {
        customer: { name: 'Maria da Silva', document: '52998224725', document_kind: 'cpf' },
        frequency: 'monthly',
        amount: 2990,
        first_amount: 2990,
        description: null,
        start_date: today,
        end_date: null,
        retry: true,
        metadata: {},
      },
    });
  });

  it('keeps what was given', () => {
    const result = validateSubscriptionInput(
      {
        customer: { name: 'Empresa X', document: '11.222.333/0001-81' },
        frequency: 'annually',
        amount: 100_000,
        first_amount: 50_000,
        description: 'Plano anual',
        start_date: '2026-12-01',
        end_date: '2029-12-01',
        retry: false,
        metadata: { plan: 'gold' },
      },
      today,
    );
    expect(result).toEqual({
      ok: true,
      value: expect.objectContaining({
        customer: { name: 'Empresa X', document: '11222333000181', document_kind: 'cnpj' },
        first_amount: 50_000,
        description: 'Plano anual',
        start_date: '2026-12-01',
        end_date: '2029-12-01',
        retry: false,
        metadata: { plan: 'gold' },
      }),
    });
  });

  it('a variable amount (omitted or null) needs first_amount', () => {
    expect(refusal({ ...valid, amount: undefined })).toMatchObject({ code: 'parameter_missing', param: 'first_amount' });
    const result = validateSubscriptionInput({ ...valid, amount: null, first_amount: 1500 }, today);
    expect(result).toMatchObject({ ok: true, value: { amount: null, first_amount: 1500 } });
  });

  it.each<[string, CreateSubscriptionInput, { code: string; param: string }]>([
    ['no customer', { ...valid, customer: undefined }, { code: 'parameter_missing', param: 'customer.name' }],
    ['a blank name', { ...valid, customer: { name: '   ', document: '52998224725' } }, { code: 'parameter_missing', param: 'customer.name' }],
    ['a name over 140', { ...valid, customer: { name: 'a'.repeat(141), document: '52998224725' } }, { code: 'parameter_invalid', param: 'customer.name' }],
    ['no document', { ...valid, customer: { name: 'Maria' } }, { code: 'parameter_missing', param: 'customer.document' }],
    ['a wrong check digit', { ...valid, customer: { name: 'Maria', document: '529.982.247-24' } }, { code: 'parameter_invalid', param: 'customer.document' }],
    ['an alphanumeric CNPJ (not in the Pix API yet)', { ...valid, customer: { name: 'Empresa', document: '12.ABC.345/01DE-35' } }, { code: 'parameter_invalid', param: 'customer.document' }],
    ['no frequency', { ...valid, frequency: undefined }, { code: 'parameter_missing', param: 'frequency' }],
    ['a daily frequency', { ...valid, frequency: 'daily' }, { code: 'parameter_invalid', param: 'frequency' }],
    ['a zero amount', { ...valid, amount: 0 }, { code: 'amount_too_small', param: 'amount' }],
    ['reais instead of cents', { ...valid, amount: 29.9 }, { code: 'parameter_invalid', param: 'amount' }],
    ['an amount over R$ 1 bilhão', { ...valid, amount: 100_000_000_001 }, { code: 'parameter_invalid', param: 'amount' }],
    ['a negative first_amount', { ...valid, first_amount: -1 }, { code: 'amount_too_small', param: 'first_amount' }],
    ['a description over 35', { ...valid, description: 'x'.repeat(36) }, { code: 'parameter_invalid', param: 'description' }],
    ['a malformed start_date', { ...valid, start_date: '24/11/2026' }, { code: 'parameter_invalid', param: 'start_date' }],
    ['a start_date in the past', { ...valid, start_date: '2026-11-23' }, { code: 'parameter_invalid', param: 'start_date' }],
    ['an impossible end_date', { ...valid, end_date: '2027-02-29' }, { code: 'parameter_invalid', param: 'end_date' }],
    ['end_date on start_date', { ...valid, start_date: '2026-12-01', end_date: '2026-12-01' }, { code: 'parameter_invalid', param: 'end_date' }],
    ['end_date before a defaulted start', { ...valid, end_date: '2026-11-20' }, { code: 'parameter_invalid', param: 'end_date' }],
    ['51 metadata keys', { ...valid, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, { code: 'metadata_invalid', param: 'metadata' }],
    ['a 41-character metadata key', { ...valid, metadata: { ['k'.repeat(41)]: 'v' } }, { code: 'metadata_invalid', param: 'metadata' }],
    ['a 501-character metadata value', { ...valid, metadata: { note: 'v'.repeat(501) } }, { code: 'metadata_invalid', param: 'metadata.note' }],
  ])('refuses %s', (_case, input, expected) => {
    const error = refusal(input);
    expect(error).toMatchObject(expected);
    expect(error.message).toMatch(/[a-zà-ú]/); // a sentence, not a bare code
  });

  it('accepts the limits themselves', () => {
    const atLimits: CreateSubscriptionInput = {
      ...valid,
      customer: { name: 'a'.repeat(140), document: '52998224725' },
      amount: 1,
      description: 'x'.repeat(35),
      start_date: today,
      end_date: '2026-11-25',
      metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${'k'.repeat(38)}${String(i).padStart(2, '0')}`, 'v'.repeat(500)])),
    };
    expect(validateSubscriptionInput(atLimits, today).ok).toBe(true);
  });

  it('says what to do in Portuguese', () => {
    expect(refusal({ ...valid, customer: { name: 'Maria' } }).message).toBe(
      'Informe o CPF ou CNPJ do cliente em customer.document: o Pix Automático exige o documento do pagador.',
    );
    expect(refusal({ ...valid, start_date: '2026-11-01' }).message).toContain('Use 2026-11-24 ou uma data posterior');
  });
});

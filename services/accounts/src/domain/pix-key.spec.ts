import { AppError } from '@orquestra/platform';
import { normalizeLabel, normalizePixKey } from './pix-key';

function refusal(run: () => unknown): { code: string; param: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('normalizePixKey', () => {
  it('keeps the digits of a valid CPF or CNPJ, punctuation dropped', () => {
    expect(normalizePixKey('cpf', '529.982.247-25')).toEqual({ key_type: 'cpf', key: '52998224725' });
    expect(normalizePixKey('cnpj', '11.222.333/0001-81')).toEqual({ key_type: 'cnpj', key: '11222333000181' });
    expect(normalizePixKey('CNPJ', '12.abc.345/01de-35')).toEqual({ key_type: 'cnpj', key: '12ABC34501DE35' });
  });

  it('refuses a wrong check digit, and a CPF given as cnpj', () => {
    expect(refusal(() => normalizePixKey('cpf', '529.982.247-26'))).toMatchObject({ code: 'parameter_invalid', param: 'key', message: expect.stringContaining('CPF inválido') });
    expect(refusal(() => normalizePixKey('cnpj', '52998224725'))).toMatchObject({ code: 'parameter_invalid', param: 'key', message: expect.stringContaining('CNPJ inválido') });
    expect(refusal(() => normalizePixKey('cpf', '111.111.111-11'))).toMatchObject({ param: 'key' });
  });

  it('lower-cases an e-mail and refuses one without a domain or longer than 77 characters', () => {
    expect(normalizePixKey('email', ' Fin@Loja.com.BR ')).toEqual({ key_type: 'email', key: 'fin@loja.com.br' });
    expect(refusal(() => normalizePixKey('email', 'fin@loja'))).toMatchObject({ code: 'parameter_invalid', param: 'key' });
    expect(refusal(() => normalizePixKey('email', 'a b@loja.com'))).toMatchObject({ param: 'key' });
    expect(refusal(() => normalizePixKey('email', `${'a'.repeat(70)}@loja.com`))).toMatchObject({ param: 'key' });
  });

  it('writes a mobile number as +55, DDD and 9 digits, with or without the +55 and punctuation', () => {
    expect(normalizePixKey('phone', '+55 (11) 98765-4321')).toEqual({ key_type: 'phone', key: '+5511987654321' });
    expect(normalizePixKey('phone', '21987654321')).toEqual({ key_type: 'phone', key: '+5521987654321' });
    for (const bad of ['+1 415 555 0100', '+5511 8765-4321', '+5501987654321', '987654321', '+55119876543210']) {
      expect(refusal(() => normalizePixKey('phone', bad))).toMatchObject({ code: 'parameter_invalid', param: 'key', message: expect.stringContaining('+55') });
    }
  });

  it('lower-cases a random key (EVP) and refuses anything but a UUID', () => {
    expect(normalizePixKey('evp', '123E4567-E89B-12D3-A456-426614174000')).toEqual({ key_type: 'evp', key: '123e4567-e89b-12d3-a456-426614174000' });
    expect(refusal(() => normalizePixKey('evp', '123e4567e89b12d3a456426614174000'))).toMatchObject({ param: 'key' });
  });

  it('names key_type or key when they are missing or unknown', () => {
    expect(refusal(() => normalizePixKey('', 'x'))).toMatchObject({ code: 'parameter_missing', param: 'key_type' });
    expect(refusal(() => normalizePixKey('iban', 'x'))).toMatchObject({ code: 'parameter_invalid', param: 'key_type', message: expect.stringContaining('cpf, cnpj, email, phone ou evp') });
    expect(refusal(() => normalizePixKey('email', '  '))).toMatchObject({ code: 'parameter_missing', param: 'key' });
  });
});

describe('normalizeLabel', () => {
  it('trims, requires a label and allows at most 60 characters', () => {
    expect(normalizeLabel('  Conta da empresa ')).toBe('Conta da empresa');
    expect(normalizeLabel('x'.repeat(60))).toHaveLength(60);
    expect(refusal(() => normalizeLabel('x'.repeat(61)))).toMatchObject({ code: 'parameter_invalid', param: 'label' });
    expect(refusal(() => normalizeLabel(' '))).toMatchObject({ code: 'parameter_missing', param: 'label' });
  });
});

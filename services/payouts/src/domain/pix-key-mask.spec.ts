import { maskPixKey } from './pix-key-mask';

describe('maskPixKey', () => {
  it('keeps only what lets the owner recognise the key', () => {
    expect(maskPixKey('cpf', '529.982.247-25')).toBe('***.982.247-**');
    expect(maskPixKey('cnpj', '11222333000181')).toBe('**.***.333/0001-**');
    expect(maskPixKey('email', 'financeiro@loja.com.br')).toBe('fi********@loja.com.br');
    expect(maskPixKey('email', 'ab@x.io')).toBe('a*@x.io');
    expect(maskPixKey('phone', '+5511987654321')).toBe('+5511*****4321');
    expect(maskPixKey('evp', '123e4567-e89b-12d3-a456-426614174000')).toBe('123e4567-****-****-****-********4000');
  });

  it('never shows a whole key', () => {
    for (const [type, key] of [['cpf', '52998224725'], ['email', 'fin@loja.com'], ['phone', '+5511987654321'], ['evp', '123e4567-e89b-12d3-a456-426614174000']] as const) {
      expect(maskPixKey(type, key)).not.toBe(key);
      expect(maskPixKey(type, key)).toContain('*');
    }
  });
});

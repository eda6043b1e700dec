import { parseTaxId } from './tax-id';

describe('CPF and CNPJ check digits', () => {
  it.each([
    ['529.982.247-25', { kind: 'cpf', digits: '52998224725' }],
    ['12345678909', { kind: 'cpf', digits: '12345678909' }],
    ['111.444.777-35', { kind: 'cpf', digits: '11144477735' }],
    ['11.222.333/0001-81', { kind: 'cnpj', digits: '11222333000181' }],
    ['11 444 777 0001 61', { kind: 'cnpj', digits: '11444777000161' }],
  ])('accepts %s', (value, expected) => {
    expect(parseTaxId(value)).toEqual(expected);
  });

  it.each([
    ['529.982.247-24', 'last CPF digit wrong'],
    ['529.982.247-15', 'first CPF digit wrong'],
    ['11.222.333/0001-82', 'last CNPJ digit wrong'],
    ['11.222.333/0001-71', 'first CNPJ digit wrong'],
    ['111.111.111-11', 'repeated digits'],
    ['00.000.000/0000-00', 'repeated digits'],
    ['5299822472', 'ten digits'],
    ['529.982.247-2X', 'a letter'],
    ['', 'empty'],
  ])('refuses %s (%s)', (value) => {
    expect(parseTaxId(value)).toBeNull();
  });
});

import { numericTaxId, parseTaxId } from './tax-id';

describe('tax ids', () => {
  it.each([
    ['529.982.247-25', { kind: 'cpf', value: '52998224725' }],
    ['52998224725', { kind: 'cpf', value: '52998224725' }],
    ['11.222.333/0001-81', { kind: 'cnpj', value: '11222333000181' }],
    // The alphanumeric CNPJ (Nota Técnica RFB 49/2024), in any case.
    ['12.ABC.345/01DE-35', { kind: 'cnpj', value: '12ABC34501DE35' }],
    ['12abc34501de35', { kind: 'cnpj', value: '12ABC34501DE35' }],
  ])('reads %s', (text, expected) => expect(parseTaxId(text)).toEqual(expected));

  it.each([
    ['529.982.247-24', 'a wrong check digit'],
    ['111.111.111-11', 'repeated digits, which satisfy the arithmetic but are never issued'],
    ['11.222.333/0001-82', 'a wrong CNPJ check digit'],
    ['12ABC34501DE36', 'a wrong alphanumeric check digit'],
    ['5299822472', 'ten digits'],
    ['', 'nothing'],
    [undefined, 'absent'],
  ])('refuses %s (%s)', (text, _why) => expect(parseTaxId(text)).toBeNull());

  it('gives only all-digit ids to parties that take digits', () => {
    expect(numericTaxId('11.222.333/0001-81')).toEqual({ kind: 'cnpj', value: '11222333000181' });
    expect(numericTaxId('12.ABC.345/01DE-35')).toBeNull();
    expect(numericTaxId('529.982.247-25')).toEqual({ kind: 'cpf', value: '52998224725' });
  });
});

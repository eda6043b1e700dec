import { numericTaxId, parseTaxId, taxIdKey } from './tax-id';

/**
 * Receita Federal's rule for the alphanumeric CNPJ, written out here only to check the library
 * against it: each character's value is its ASCII code minus 48 ('0'–'9' → 0–9, 'A' → 17 … 'Z' → 42),
 * weights 2..9 from the right, modulo 11; a remainder below 2 gives 0, else 11 minus it.
 */
function cnpjCheckDigits(base12: string): string {
  const digit = (chars: string) => {
    const sum = [...chars].reverse().reduce((acc, ch, i) => acc + (ch.charCodeAt(0) - 48) * ((i % 8) + 2), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base12);
  return `${first}${digit(base12 + first)}`;
}

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

  it("computes the Receita Federal's published example 12.ABC.345/01DE-35 and the library agrees", () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('112223330001')).toBe('81'); // the same rule gives the numeric CNPJ's digits
    for (const base of ['A1B2C3D4E5F6', 'ZZZZZZZZ0001', '00ABCDEF0001']) {
      const digits = cnpjCheckDigits(base);
      expect(parseTaxId(`${base}${digits}`)).toEqual({ kind: 'cnpj', value: `${base}${digits}` });
      expect(parseTaxId(`${base}${digits[0]}${(Number(digits[1]) + 1) % 10}`)).toBeNull();
    }
  });

  it('refuses the sample CPF 123.456.789-09 (valid arithmetic, nobody\'s number)', () => {
    expect(parseTaxId('123.456.789-09')).toBeNull();
  });

  it('keys stored documents by letters and digits, upper case', () => {
    expect(taxIdKey('529.982.247-25')).toBe('52998224725');
    expect(taxIdKey('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(taxIdKey(undefined)).toBe('');
  });

  it('gives only all-digit ids to parties that take digits', () => {
    expect(numericTaxId('11.222.333/0001-81')).toEqual({ kind: 'cnpj', value: '11222333000181' });
    expect(numericTaxId('12.ABC.345/01DE-35')).toBeNull();
    expect(numericTaxId('529.982.247-25')).toEqual({ kind: 'cpf', value: '52998224725' });
  });
});

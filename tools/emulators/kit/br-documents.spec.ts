import { documentDigits, isValidCnpj, isValidCpf, taxIdType } from './br-documents';

describe('CPF and CNPJ', () => {
  it('accepts documents with right check digits and refuses a changed digit or a repeated one', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });

  it('types a document and reads one written with punctuation', () => {
    expect(taxIdType('52998224725')).toBe('BR:CPF');
    expect(taxIdType('11222333000181')).toBe('BR:CNPJ');
    expect(taxIdType('1122233300018')).toBeUndefined();
    expect(documentDigits('529.982.247-25')).toBe('52998224725');
    expect(documentDigits('11.222.333/0001-81')).toBe('11222333000181');
    expect(documentDigits('529.982.247-24')).toBeUndefined();
  });
});

import { documentDigits, searchableDocument, searchFilter } from './payment-search';

describe('payment search', () => {
  it('finds by payment id exactly', () => {
    expect(searchFilter('pay_01j9z0k3x7m2q8r4t6v8w0y2a4')).toEqual({ _id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' });
  });

  it('finds by CPF/CNPJ with or without punctuation', () => {
    expect(documentDigits('529.982.247-25')).toBe('52998224725');
    expect(documentDigits('11.222.333/0001-81')).toBe('11222333000181');
    expect(documentDigits('12345')).toBeUndefined();
    expect(searchFilter('529.982.247-25')).toEqual({ $or: [{ 'search.document': '52998224725' }, { 'customer.document': '529.982.247-25' }] });
    expect(searchableDocument('529.982.247-25')).toBe('52998224725');
    expect(searchableDocument(undefined)).toBe('');
  });

  it('finds by an alphanumeric CNPJ in any case, kept upper case in the index', () => {
    expect(documentDigits('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(searchableDocument('12ABC34501DE35')).toBe('12ABC34501DE35');
    expect(searchFilter('12.ABC.345/01DE-35')).toEqual({ $or: [{ 'search.document': '12ABC34501DE35' }, { 'customer.document': '12.ABC.345/01DE-35' }] });
    // A name that happens to be 14 letters and digits is still a name when its check digits fail.
    expect(searchFilter('ABCDEFGHIJKL00')).toEqual({ 'customer.name': { $regex: 'ABCDEFGHIJKL00', $options: 'i' } });
  });

  it('finds by e-mail case-insensitively and exactly, by name partially, with regex characters escaped', () => {
    expect(searchFilter('Maria@Example.com')).toEqual({ 'customer.email': { $regex: '^Maria@Example\\.com$', $options: 'i' } });
    expect(searchFilter('silva')).toEqual({ 'customer.name': { $regex: 'silva', $options: 'i' } });
    expect(searchFilter('a.*b')).toEqual({ 'customer.name': { $regex: 'a\\.\\*b', $options: 'i' } });
  });
});

import { dueFactor, isValidDigitableLine, mod10, mod11, newBoleto } from './boleto-line';

describe('boleto line', () => {
  it('accepts a published Banco do Brasil line and refuses it with any digit changed', () => {
    const line = '00190500954014481606906809350314337370000000100';
    expect(isValidDigitableLine(line)).toBe(true);
    for (const position of [5, 9, 15, 20, 25, 31, 32, 40]) {
      const changed = `${line.slice(0, position)}${(Number(line[position]) + 1) % 10}${line.slice(position + 1)}`;
      expect(isValidDigitableLine(changed)).toBe(false);
    }
    expect(isValidDigitableLine(line.slice(1))).toBe(false);
  });

  it('computes FEBRABAN mod 10 and mod 11 check digits', () => {
    expect(mod10('001905009')).toBe(5);
    expect(mod11('0019373700000001000500940144816060680935031')).toBe(3);
    expect(mod11('0000000000000000000000000000000000000000000')).toBe(1); // 11 → 1
  });

  it('counts the due factor across the 2025 rollover', () => {
    expect(dueFactor('2000-07-03')).toBe('1000');
    expect(dueFactor('2025-02-21')).toBe('9999');
    expect(dueFactor('2025-02-22')).toBe('1000');
    expect(dueFactor('2025-02-23')).toBe('1001');
  });

  it('issues valid lines and barcodes carrying the amount and due factor', () => {
    const boleto = newBoleto(1_990, '2026-11-25', '341', '1234567890123456789012345');
    expect(isValidDigitableLine(boleto.digitableLine)).toBe(true);
    expect(boleto.barcode).toHaveLength(44);
    expect(boleto.barcode.slice(5, 19)).toBe(`${dueFactor('2026-11-25')}0000001990`);
    expect(boleto.barcode.slice(19)).toBe('1234567890123456789012345');
    expect(boleto.digitableLine.slice(-14)).toBe(boleto.barcode.slice(5, 19));
    expect(() => newBoleto(-1, '2026-11-25')).toThrow(RangeError);
  });
});

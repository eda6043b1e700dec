import { computeFee } from './fees';

describe('computeFee', () => {
  const rules = [{ method: 'pix', percent_bps: 99, fixed: 0 }, { method: 'boleto', percent_bps: 0, fixed: 349 }];

  it('applies the percentage with half-up rounding to the cent', () => {
    expect(computeFee(1000, 'pix', rules)).toEqual({ fee: 10, net: 990 }); // 9.9 → 10
    expect(computeFee(5050, 'pix', rules)).toEqual({ fee: 50, net: 5000 }); // 49.995 → 50
    expect(computeFee(100, 'pix', rules)).toEqual({ fee: 1, net: 99 }); // 0.99 → 1
    expect(computeFee(50, 'pix', rules)).toEqual({ fee: 0, net: 50 }); // 0.495 → 0
  });

  it('applies fixed fees and never exceeds the amount', () => {
    expect(computeFee(10_000, 'boleto', rules)).toEqual({ fee: 349, net: 9_651 });
    expect(computeFee(100, 'boleto', rules)).toEqual({ fee: 100, net: 0 });
  });

  it('prefers the provider-reported fee and defaults to zero without a rule', () => {
    expect(computeFee(1000, 'pix', rules, 7)).toEqual({ fee: 7, net: 993 });
    expect(computeFee(1000, 'card', rules)).toEqual({ fee: 0, net: 1000 });
  });
});

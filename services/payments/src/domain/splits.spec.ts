import { AppError } from '@orquestra/platform';
import { assertRoomForFee, MAX_SPLITS, splitParts } from './splits';

const refusal = (work: () => unknown): AppError => {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('split parts', () => {
  it('keeps fixed parts as given', () => {
    expect(splitParts(10_000, [{ subaccount_id: 'sub_a', amount: 2_500 }, { subaccount_id: 'sub_b', amount: 1 }])).toStrictEqual([
      { subaccount_id: 'sub_a', amount: 2_500 },
      { subaccount_id: 'sub_b', amount: 1 },
    ]);
  });

  it('rounds a percentage of the gross down to the cent (12.5% of 999 = 124.875 → 124)', () => {
    expect(splitParts(999, [{ subaccount_id: 'sub_a', percent_bps: 1_250 }])).toStrictEqual([{ subaccount_id: 'sub_a', amount: 124 }]);
  });

  it('rounds each part down by less than a cent, so the remainder gains only what rounding left, for every amount and share', () => {
    for (const amount of [3, 7, 99, 101, 1_000, 12_345, 999_999, 10_000_001]) {
      for (const shares of [[3_333, 3_333, 3_333], [1, 9_998], [5_000, 4_999], [33, 67, 1_250, 2_500]]) {
        const requests = shares.map((percent_bps, index) => ({ subaccount_id: `sub_${index}`, percent_bps }));
        let parts;
        try {
          parts = splitParts(amount, requests);
        } catch (error) {
          // Only a share worth less than one cent of a tiny amount may be refused.
          expect((error as AppError).param).toMatch(/^splits\[\d+\]\.percentage$/);
          continue;
        }
        const total = parts.reduce((sum, part) => sum + part.amount, 0);
        parts.forEach((part, index) => {
          const exact = (amount * shares[index]!) / 10_000;
          expect(part.amount).toBeLessThanOrEqual(exact);
          expect(exact - part.amount).toBeLessThan(1);
          expect(Number.isInteger(part.amount)).toBe(true);
        });
        // The main account's remainder is what rounding left plus the unsplit share: a whole, positive number of cents.
        const exactRemainder = amount - shares.reduce((sum, share) => sum + (amount * share) / 10_000, 0);
        expect(amount - total).toBeGreaterThanOrEqual(exactRemainder);
        expect(amount - total - exactRemainder).toBeLessThan(shares.length);
      }
    }
  });

  it('refuses parts that reach the amount, naming splits', () => {
    const error = refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a', amount: 600 }, { subaccount_id: 'sub_b', percent_bps: 4_000 }]));
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('splits');
    expect(error.message).toContain('menos que o valor do pagamento (1000)');
  });

  it('refuses a part with both or neither of amount and percentage', () => {
    expect(refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a', amount: 1, percent_bps: 100 }])).param).toBe('splits[0]');
    expect(refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a' }])).param).toBe('splits[0]');
  });

  it('refuses a percentage worth less than a cent, a zero or negative amount, 100% or more', () => {
    expect(refusal(() => splitParts(50, [{ subaccount_id: 'sub_a', percent_bps: 1 }])).param).toBe('splits[0].percentage');
    expect(refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a', amount: 0 }])).param).toBe('splits[0].amount');
    expect(refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a', amount: 1.5 }])).param).toBe('splits[0].amount');
    expect(refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a', percent_bps: 10_000 }])).param).toBe('splits[0].percentage');
  });

  it('refuses the same subaccount twice and more than 20 parts', () => {
    expect(refusal(() => splitParts(1_000, [{ subaccount_id: 'sub_a', amount: 1 }, { subaccount_id: 'sub_a', amount: 2 }])).param).toBe('splits[1].subaccount_id');
    const many = Array.from({ length: MAX_SPLITS + 1 }, (_, index) => ({ subaccount_id: `sub_${index}`, amount: 1 }));
    expect(refusal(() => splitParts(10_000, many)).param).toBe('splits');
    expect(splitParts(10_000, many.slice(0, MAX_SPLITS))).toHaveLength(MAX_SPLITS);
  });
});

describe('room for the fee', () => {
  const parts = [{ subaccount_id: 'sub_a', amount: 9_000 }];

  it('accepts a remainder that covers the account’s fee for the method', () => {
    // 10 000 × 0.99% = 99, + 50 fixed = 149; the remainder is 1 000.
    expect(() => assertRoomForFee(10_000, parts, { percent_bps: 99, fixed: 50 })).not.toThrow();
    expect(() => assertRoomForFee(10_000, [{ subaccount_id: 'sub_a', amount: 9_851 }], { percent_bps: 99, fixed: 50 })).not.toThrow();
  });

  it('refuses a remainder one cent short of the fee, naming splits', () => {
    const error = refusal(() => assertRoomForFee(10_000, [{ subaccount_id: 'sub_a', amount: 9_852 }], { percent_bps: 99, fixed: 50 }));
    expect(error.param).toBe('splits');
    expect(error.message).toContain('taxa de 149 centavos');
  });

  it('has nothing to check without a fee schedule or without parts', () => {
    expect(() => assertRoomForFee(10_000, [{ subaccount_id: 'sub_a', amount: 9_999 }], undefined)).not.toThrow();
    expect(() => assertRoomForFee(10_000, [], { percent_bps: 10_000, fixed: 0 })).not.toThrow();
  });
});

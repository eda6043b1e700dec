import { splitProblems, storedRules, takeBack, type SplitRuleRequest } from './split-rules';

const owners: Record<string, string> = { rp_main: 'acc_1', rp_seller: 'rp_seller', rp_other: 'rp_other' };
const resolve = (id: string) => owners[id];
let seq = 0;
const id = () => `sr_${(seq += 1)}`;

const rules = (seller: number, other: number, main: number): SplitRuleRequest[] => [
  { amount: seller, type: 'flat', recipient_id: 'rp_seller', options: { liable: false, charge_processing_fee: false, charge_remainder_fee: false } },
  { amount: other, type: 'flat', recipient_id: 'rp_other', options: { liable: false, charge_processing_fee: false, charge_remainder_fee: false } },
  { amount: main, type: 'flat', recipient_id: 'rp_main', options: { liable: true, charge_processing_fee: true, charge_remainder_fee: true } },
];

describe('Pagar.me emulator split rules', () => {
  it('accepts rules that cover the whole amount', () => {
    expect(splitProblems(rules(300, 200, 500), 1_000, resolve)).toEqual({});
  });

  it('refuses an unknown recipient, a sum other than the amount, and two remainder takers', () => {
    const bad = splitProblems([...rules(300, 200, 600), { amount: 1, type: 'flat', recipient_id: 'rp_nobody' }], 1_000, resolve);
    expect(bad['order.payments[0].split[3].recipient_id']).toEqual(['Recipient not found.']);
    expect(bad['order.payments[0].split']).toEqual(
      expect.arrayContaining([expect.stringContaining('(1101) must be equal to the payment amount (1000)'), 'Exactly one split rule must have charge_remainder_fee.']),
    );
  });

  it('takes refunds back in proportion, never losing or creating a cent', () => {
    const stored = storedRules(rules(333, 333, 334), resolve, id);
    const first = takeBack(stored, 1_000, 1);
    expect(first.reduce((sum, d) => sum + d.amount, 0)).toBe(1);
    const second = takeBack(stored, 1_000, 500);
    expect(second.reduce((sum, d) => sum + d.amount, 0)).toBe(499);
    takeBack(stored, 1_000, 1_000);
    expect(stored.map((r) => [r.owner, r.refunded])).toEqual([
      ['rp_seller', 333],
      ['rp_other', 333],
      ['acc_1', 334],
    ]);
  });
});

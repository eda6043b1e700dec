/**
 * Split rules on an order's payment (`payments[].split`, Pagar.me v5 CreateSplitRequest:
 * `{amount, type: "flat"|"percentage", recipient_id, options{liable, charge_processing_fee,
 * charge_remainder_fee}}`), as the emulator reads them:
 * - the rules cover the whole amount, the account's own (default) recipient included, as Pagar.me
 *   requires: flat amounts summing to the payment's amount (a sum above or below it → 422);
 *   `percentage` rules are not emulated (422, the emulator's wording);
 * - each `recipient_id` is the account's own recipient or one it created (another account's or an
 *   unknown id → 422 on `…split[i].recipient_id`, "Recipient not found."); a recipient appears once;
 * - options default to true when omitted (Pagar.me's documented defaults); exactly one rule must
 *   take the remainder (`charge_remainder_fee`) and at least one the processing fee;
 * - when the charge is paid, each rule's amount goes to its recipient's balance (the emulator
 *   charges no processing fee on Pix, so nothing is taken from the fee payer);
 * - a refund (or the cancel of a paid charge) takes money back from each recipient in proportion
 *   to its rule (cumulatively, rounded down), the rounding cents from the rule with
 *   `charge_remainder_fee`, so the parts taken back always sum to what was refunded. `liable`
 *   (who bears chargebacks) has no effect here: the emulator has no chargebacks.
 * Unconfirmed (no primary source): the error texts, and whether Pagar.me answers an unknown
 * recipient with 404 or 422 (422 here, as a validation of the order).
 */
import { z } from 'zod';

export const splitRuleSchema = z.object({
  amount: z.number().int().min(1),
  type: z.enum(['flat', 'percentage']),
  recipient_id: z.string().min(1),
  options: z
    .object({ liable: z.boolean().optional(), charge_processing_fee: z.boolean().optional(), charge_remainder_fee: z.boolean().optional() })
    .optional(),
});

export type SplitRuleRequest = z.infer<typeof splitRuleSchema>;

export interface StoredSplitRule {
  id: string;
  recipientId: string;
  /** The balance the part goes to (PayoutBook owner): the account id for its own recipient, else the recipient id. */
  owner: string;
  amount: number;
  liable: boolean;
  chargeProcessingFee: boolean;
  chargeRemainderFee: boolean;
  /** What has been taken back from this recipient by refunds. */
  refunded: number;
}

/** The owner of a recipient id seen by this account, or undefined when it is not one of the account's. */
export type RecipientResolver = (recipientId: string) => string | undefined;

/** Problems keyed by field path (`order.payments[0].split[1].recipient_id`), as parseCreateOrder lists them. */
export function splitProblems(rules: SplitRuleRequest[], amount: number, resolve: RecipientResolver): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  const base = 'order.payments[0].split';
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    if (rule.type !== 'flat') add(`${base}[${i}].type`, 'The emulator supports flat split rules only.');
    if (resolve(rule.recipient_id) === undefined) add(`${base}[${i}].recipient_id`, 'Recipient not found.');
    if (seen.has(rule.recipient_id)) add(`${base}[${i}].recipient_id`, 'A recipient can appear in one split rule only.');
    seen.add(rule.recipient_id);
  });
  const sum = rules.reduce((total, rule) => total + rule.amount, 0);
  if (sum !== amount) add(base, `The sum of the split rules amounts (${sum}) must be equal to the payment amount (${amount}).`);
  if (rules.filter((rule) => rule.options?.charge_remainder_fee ?? true).length !== 1) add(base, 'Exactly one split rule must have charge_remainder_fee.');
  if (!rules.some((rule) => rule.options?.charge_processing_fee ?? true)) add(base, 'At least one split rule must have charge_processing_fee.');
  return errors;
}

export function storedRules(rules: SplitRuleRequest[], resolve: RecipientResolver, newId: () => string): StoredSplitRule[] {
  return rules.map((rule) => ({
    id: newId(),
    recipientId: rule.recipient_id,
    owner: resolve(rule.recipient_id) ?? rule.recipient_id,
    amount: rule.amount,
    liable: rule.options?.liable ?? true,
    chargeProcessingFee: rule.options?.charge_processing_fee ?? true,
    chargeRemainderFee: rule.options?.charge_remainder_fee ?? true,
    refunded: 0,
  }));
}

/**
 * What each recipient gives back once `canceledTotal` of `paid` has been refunded (cumulative):
 * every rule but the remainder one its proportional share rounded down, the remainder rule the
 * rest; answers the new debits and records them on the rules.
 */
export function takeBack(rules: StoredSplitRule[], paid: number, canceledTotal: number): Array<{ owner: string; amount: number }> {
  const remainder = rules.find((rule) => rule.chargeRemainderFee) ?? rules[0];
  const targets = new Map<StoredSplitRule, number>();
  let others = 0;
  for (const rule of rules) {
    if (rule === remainder) continue;
    const due = Math.floor((canceledTotal * rule.amount) / paid);
    targets.set(rule, due);
    others += due;
  }
  if (remainder) targets.set(remainder, canceledTotal - others);
  const debits: Array<{ owner: string; amount: number }> = [];
  for (const [rule, due] of targets) {
    const delta = due - rule.refunded;
    rule.refunded = due;
    if (delta !== 0) debits.push({ owner: rule.owner, amount: delta });
  }
  return debits;
}

export function splitRuleJson(rule: StoredSplitRule) {
  return {
    id: rule.id,
    type: 'flat',
    amount: rule.amount,
    recipient: { id: rule.recipientId },
    options: { liable: rule.liable, charge_processing_fee: rule.chargeProcessingFee, charge_remainder_fee: rule.chargeRemainderFee },
  };
}

/**
 * Splits at Stripe are destination charges (docs.stripe.com/connect/destination-charges): the
 * platform's PaymentIntent carries `transfer_data[destination]=acct_…` and, when it succeeds, Stripe
 * transfers part of it to that connected account. One destination per charge: maxSplits is 1.
 *
 * The part is sent as `transfer_data[amount]` rather than as `application_fee_amount = amount −
 * part`: both leave the same money on each side (the platform pays Stripe's fee in a destination
 * charge either way), but `transfer_data[amount]` states the subaccount's part itself, the number
 * payments computed and stores, with no subtraction whose result could drift from it.
 *
 * Refunds of a destination charge send `reverse_transfer=true` (stripe.refunds.ts): Stripe then
 * takes the part back from the connected account in proportion to the amount refunded, and the
 * platform pays only its own share; without it the platform alone would pay the whole refund.
 */
import type { CreateChargeInput } from '../provider-adapter';
import type { FormValue } from './stripe.form-encoding';

/** `transfer_data` for a charge with one split part; nothing without splits. */
export function destinationParams(input: Pick<CreateChargeInput, 'amount' | 'splits'>): Record<string, FormValue> {
  const splits = input.splits ?? [];
  if (splits.length === 0) return {};
  if (splits.length > 1) throw new RangeError('Stripe takes one split part per charge (one transfer_data destination)');
  const [split] = splits;
  if (!split?.splitTarget.startsWith('acct_')) throw new RangeError('the split part must name a Stripe connected account (acct_…)');
  if (!Number.isSafeInteger(split.amount) || split.amount < 1 || split.amount >= input.amount) {
    throw new RangeError('the split part must be a positive integer of cents below the amount, leaving the platform its share');
  }
  return { transfer_data: { destination: split.splitTarget, amount: split.amount } };
}

/** Whether a PaymentIntent as Stripe answers it is a destination charge (its refunds reverse the transfer). */
export function isDestinationCharge(intent: unknown): boolean {
  const destination = (intent as { transfer_data?: { destination?: unknown } | null } | undefined)?.transfer_data?.destination;
  return typeof destination === 'string' && destination.length > 0;
}

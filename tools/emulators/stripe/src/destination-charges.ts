/**
 * Destination charges (docs.stripe.com/connect/destination-charges): a PaymentIntent of the
 * platform with `transfer_data[destination]=acct_…` and either `transfer_data[amount]` (what the
 * connected account receives) or `application_fee_amount` (what the platform keeps); never both.
 * - the destination must be one of the platform's connected accounts (else 400 `resource_missing`
 *   on `transfer_data[destination]`, "No such destination") with the `transfers` capability active
 *   (else 400 `insufficient_capabilities_for_transfer`, Stripe's code);
 * - `transfer_data[amount]` and `application_fee_amount` must not exceed the amount;
 * - when it succeeds, the part goes to the connected account's balance (a transfer `tr_…`) and the
 *   platform keeps the rest minus Stripe's fee (the platform pays the fees of a destination charge);
 * - a refund with `reverse_transfer=true` takes the part back from the connected account in
 *   proportion to what was refunded (cumulatively, rounded down; the last refund takes the rest),
 *   the platform gives the rest; without it the platform's balance alone pays the refund, as at
 *   Stripe. `reverse_transfer` on a PaymentIntent without a transfer is refused (the emulator's
 *   reading). A refund that fails or is canceled gives each its share back.
 */
import type { StoredConnectedAccount } from './connect';
import { integerParam, objectParam, rejectUnknown, stringParam, type Params } from './form-params';
import { StripeApiError, stripeErrors } from './stripe-errors';

export interface TransferData {
  destination: string;
  /** `transfer_data[amount]` as sent (absent: the amount minus `application_fee_amount`). */
  amount?: number;
}

/** The transfer a succeeded destination charge made, and how much of it refunds reversed. */
export interface StoredTransfer {
  id: string;
  destination: string;
  amount: number;
  reversed: number;
}

export type ConnectedAccountOf = (platformId: string, id: string) => StoredConnectedAccount | undefined;

/** `transfer_data` and `application_fee_amount` of a create, checked against the platform's accounts. */
export function parseDestination(body: Params, amount: number, platformId: string, accountOf: ConnectedAccountOf): { transferData: TransferData | null; applicationFeeAmount: number | null } {
  const fee = integerParam(body['application_fee_amount'], 'application_fee_amount') ?? null;
  if (body['transfer_data'] === undefined) {
    if (fee !== null) {
      throw stripeErrors.invalidValue(
        'application_fee_amount',
        'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
      );
    }
    return { transferData: null, applicationFeeAmount: null };
  }
  const data = objectParam(body['transfer_data'], 'transfer_data');
  rejectUnknown(data, ['destination', 'amount'], 'transfer_data');
  const destination = stringParam(data['destination'], 'transfer_data[destination]');
  if (!destination) throw stripeErrors.parameterMissing('transfer_data[destination]');
  const part = integerParam(data['amount'], 'transfer_data[amount]');
  if (part !== undefined && fee !== null) throw stripeErrors.invalidValue('application_fee_amount', 'You may only specify one of these parameters: application_fee_amount, transfer_data[amount].');
  if (part !== undefined && (part < 1 || part > amount)) throw stripeErrors.invalidValue('transfer_data[amount]', `transfer_data[amount] must be between 1 and the PaymentIntent's amount (${amount}).`);
  if (fee !== null && (fee < 0 || fee > amount)) throw stripeErrors.invalidValue('application_fee_amount', `application_fee_amount must be between 0 and the PaymentIntent's amount (${amount}).`);
  const account = accountOf(platformId, destination);
  if (!account) {
    throw new StripeApiError(400, { type: 'invalid_request_error', code: 'resource_missing', message: `No such destination: '${destination}'`, param: 'transfer_data[destination]' });
  }
  if (account.capabilities['transfers'] !== 'active') {
    throw new StripeApiError(400, {
      type: 'invalid_request_error',
      code: 'insufficient_capabilities_for_transfer',
      message: 'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
      param: 'transfer_data[destination]',
    });
  }
  return { transferData: { destination, ...(part !== undefined ? { amount: part } : {}) }, applicationFeeAmount: fee };
}

/** What the connected account receives of a destination charge. */
export function transferAmount(amount: number, transferData: TransferData, applicationFeeAmount: number | null): number {
  return transferData.amount ?? amount - (applicationFeeAmount ?? 0);
}

/**
 * The part of the transfer a refund of the charge from `refundedBefore` to `refundedAfter` reverses:
 * its share of that slice (floor of the cumulative shares, so refunds that end at the full amount
 * reverse exactly the transfer); records it on the transfer.
 */
export function reverseFor(transfer: StoredTransfer, chargeAmount: number, refundedBefore: number, refundedAfter: number): number {
  const share = (refunded: number) => Math.floor((refunded * transfer.amount) / chargeAmount);
  const delta = Math.min(share(refundedAfter) - share(refundedBefore), transfer.amount - transfer.reversed);
  transfer.reversed += delta;
  return delta;
}

export function transferDataJson(transferData: TransferData | null | undefined) {
  return transferData ? { destination: transferData.destination, ...(transferData.amount !== undefined ? { amount: transferData.amount } : {}) } : null;
}

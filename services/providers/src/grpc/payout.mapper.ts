import type { providers } from '@orquestra/contracts';
import type { ProviderBalance, ProviderTransfer } from '../adapters/provider-payouts';

/** The adapter's balance → gRPC message; a pending the provider does not state stays absent. */
export function toProtoBalance(balance: ProviderBalance): providers.Balance {
  return {
    available: balance.available,
    ...(balance.pending !== undefined ? { pending: balance.pending } : {}),
    currency: balance.currency,
    as_of: balance.asOf.toISOString(),
  };
}

/** The adapter's transfer → gRPC message; absent stays absent (proto3 optional). */
export function toProtoTransfer(transfer: ProviderTransfer): providers.Transfer {
  return {
    provider_transfer_id: transfer.providerTransferId,
    payout_id: transfer.payoutId,
    status: transfer.status,
    provider_status: transfer.providerStatus,
    amount: transfer.amount,
    ...(transfer.fee !== undefined ? { fee: transfer.fee } : {}),
    ...(transfer.failureCode !== undefined ? { failure_code: transfer.failureCode } : {}),
    ...(transfer.failureReason !== undefined ? { failure_reason: transfer.failureReason } : {}),
    ...(transfer.paidAt !== undefined ? { paid_at: transfer.paidAt.toISOString() } : {}),
    ...(transfer.endToEndId !== undefined ? { end_to_end_id: transfer.endToEndId } : {}),
    whole_balance: transfer.wholeBalance === true,
  };
}

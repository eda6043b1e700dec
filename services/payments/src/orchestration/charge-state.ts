import { modeFromName, providers as providersContract, type ProviderChargeUpdated } from '@orquestra/contracts';
import { assertNever, RpcError } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { ChargeState } from '../domain/charge-outcome';
import type { RefundReport } from '../domain/refunds';
import { reportFromProto } from './refund-reports';

const { ChargeStatus } = providersContract;

/** The charge status the providers service answers, in payments' terms (every value mapped). */
export function chargeStateOf(status: providersContract.ChargeStatus): ChargeState {
  switch (status) {
    case ChargeStatus.CHARGE_STATUS_PAID:
      return 'paid';
    case ChargeStatus.CHARGE_STATUS_CANCELED:
      return 'canceled';
    case ChargeStatus.CHARGE_STATUS_FAILED:
      return 'failed';
    case ChargeStatus.CHARGE_STATUS_PENDING:
      return 'pending';
    // An unset or unknown status says nothing final: the charge is read as still open.
    case ChargeStatus.CHARGE_STATUS_UNSPECIFIED:
    case ChargeStatus.UNRECOGNIZED:
      return 'pending';
    default:
      return assertNever(status);
  }
}

/** What a provider says about a payment's charge, from a read, a cancel or a webhook. */
export type ChargeView = Pick<ProviderChargeUpdated, 'end_to_end_id' | 'paid_at' | 'failure_code' | 'failure_reason'> & {
  status: ChargeState;
  refunds?: RefundReport[];
};

export function chargeView(charge: providersContract.Charge): ChargeView {
  return {
    status: chargeStateOf(charge.status),
    ...(charge.end_to_end_id ? { end_to_end_id: charge.end_to_end_id } : {}),
    ...(charge.paid_at ? { paid_at: charge.paid_at } : {}),
    ...(charge.failure_code ? { failure_code: charge.failure_code, failure_reason: charge.failure_reason } : {}),
    refunds: charge.refunds.map(reportFromProto),
  };
}

/** The payment's charge at its provider account. */
export function chargeRef(payment: PaymentDoc): providersContract.ChargeRef {
  return {
    merchant_id: payment.merchant_id,
    mode: modeFromName(payment.mode),
    account_id: payment.provider_account_id,
    provider_payment_id: payment.provider_payment_id,
  };
}

/** The provider answered that the charge does not exist (not that the account is unknown). */
export function chargeUnknown(error: unknown): boolean {
  return error instanceof RpcError && error.code === 'not_found' && error.param === 'provider_payment_id';
}

/** A charge its provider no longer knows, treated as gone: logged, since a provider forgetting a live charge is worth seeing. */
export function warnChargeGone(logger: Logger, payment: PaymentDoc, during: 'sync' | 'expiry'): void {
  logger.warn({ payment_id: payment._id, provider: payment.provider, provider_payment_id: payment.provider_payment_id, during }, 'charge unknown at the provider: treated as gone');
}

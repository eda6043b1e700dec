import { chargeStatusFromProto, modeFromName, type providers as providersContract, type ProviderChargeStatus, type ProviderChargeUpdated } from '@orquestra/contracts';
import { RpcError } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { RefundReport } from '../domain/refunds';
import { reportFromProto } from './refund-reports';

/** What a provider says about a payment's charge, from a read, a cancel or a webhook. */
export type ChargeView = Pick<ProviderChargeUpdated, 'end_to_end_id' | 'paid_at' | 'failure_code' | 'failure_reason'> & {
  status: ProviderChargeStatus;
  refunds?: RefundReport[];
};

export function chargeView(charge: providersContract.Charge): ChargeView {
  return {
    status: chargeStatusFromProto(charge.status),
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

import { chargeStatusToProto, refundStatusToProto, type providers } from '@orquestra/contracts';
import type { ProviderCharge, ProviderRefund } from '../adapters/provider-adapter';
import type { ProviderAccountDoc } from '../db/provider-account.model';

export function toProtoRefund(refund: ProviderRefund): providers.ProviderRefund {
  return {
    provider_refund_id: refund.providerRefundId,
    refund_key: refund.refundKey ?? '',
    amount: refund.amount,
    status: refundStatusToProto(refund.status),
    failure_code: refund.failureCode ?? '',
    failure_reason: refund.failureReason ?? '',
    reason: refund.reason ?? '',
    created_at: refund.createdAt?.toISOString() ?? '',
  };
}

export function toProtoCharge(account: ProviderAccountDoc, charge: ProviderCharge): providers.Charge {
  return {
    provider: account.provider,
    account_id: account._id,
    provider_payment_id: charge.providerPaymentId,
    status: chargeStatusToProto(charge.status),
    next_action: {
      type: charge.nextAction.type,
      qr_code: charge.nextAction.qrCode ?? '',
      qr_code_base64: charge.nextAction.qrCodeBase64 ?? '',
      qr_code_url: '',
      digitable_line: charge.nextAction.digitableLine ?? '',
      url: charge.nextAction.url ?? '',
    },
    expires_at: charge.expiresAt?.toISOString(),
    amount: charge.amount,
    amount_paid: charge.amountPaid,
    end_to_end_id: charge.endToEndId,
    failure_code: charge.failureCode,
    failure_reason: charge.failureReason,
    provider_fee: charge.providerFee,
    paid_at: charge.paidAt?.toISOString(),
    refunds: (charge.refunds ?? []).map(toProtoRefund),
  };
}

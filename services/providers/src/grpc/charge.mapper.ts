import { chargeStatusToProto, nextActionToProto, refundReportToProto, type providers } from '@orquestra/contracts';
import type { ProviderCharge, ProviderRefund } from '../adapters/provider-adapter';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import { toRefundReport } from '../domain/webhook-intake.service';

/** An adapter's refund → the gRPC message: the same report the internal event carries. */
export function toProtoRefund(refund: ProviderRefund): providers.ProviderRefund {
  return refundReportToProto(toRefundReport(refund));
}

export function toProtoCharge(account: ProviderAccountDoc, charge: ProviderCharge): providers.Charge {
  return {
    provider: account.provider,
    account_id: account._id,
    provider_payment_id: charge.providerPaymentId,
    status: chargeStatusToProto(charge.status),
    next_action: nextActionToProto({
      type: charge.nextAction.type,
      qr_code: charge.nextAction.qrCode,
      qr_code_base64: charge.nextAction.qrCodeBase64,
      digitable_line: charge.nextAction.digitableLine,
      url: charge.nextAction.url,
    }),
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

import { providers } from '@orquestra/contracts';
import type { ProviderCharge } from '../adapters/provider-adapter';
import type { ProviderAccountDoc } from '../db/provider-account.model';

const { ChargeStatus } = providers;

function status(value: ProviderCharge['status']): providers.ChargeStatus {
  switch (value) {
    case 'pending':
      return ChargeStatus.CHARGE_STATUS_PENDING;
    case 'paid':
      return ChargeStatus.CHARGE_STATUS_PAID;
    case 'failed':
      return ChargeStatus.CHARGE_STATUS_FAILED;
    case 'canceled':
      return ChargeStatus.CHARGE_STATUS_CANCELED;
  }
}

export function toProtoCharge(account: ProviderAccountDoc, charge: ProviderCharge): providers.Charge {
  return {
    provider: account.provider,
    account_id: account._id,
    provider_payment_id: charge.providerPaymentId,
    status: status(charge.status),
    next_action: {
      type: charge.nextAction.type,
      qr_code: charge.nextAction.qrCode ?? '',
      qr_code_base64: charge.nextAction.qrCodeBase64 ?? '',
      qr_code_url: '',
      digitable_line: charge.nextAction.digitableLine ?? '',
      url: charge.nextAction.url ?? '',
    },
    expires_at: charge.expiresAt?.toISOString() ?? '',
    amount: charge.amount,
    amount_paid: charge.amountPaid,
    end_to_end_id: charge.endToEndId ?? '',
    failure_code: charge.failureCode ?? '',
    failure_reason: charge.failureReason ?? '',
    provider_fee: charge.providerFee ?? -1,
    paid_at: charge.paidAt?.toISOString() ?? '',
  };
}

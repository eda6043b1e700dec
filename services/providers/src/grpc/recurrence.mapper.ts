import type { providers } from '@orquestra/contracts';
import type { ProviderCycleCharge, ProviderRecurrence, RecurrenceFrequency } from '../adapters/provider-recurrences';

const FREQUENCIES: readonly RecurrenceFrequency[] = ['weekly', 'monthly', 'quarterly', 'semiannually', 'annually'];

export function isRecurrenceFrequency(value: string): value is RecurrenceFrequency {
  return (FREQUENCIES as readonly string[]).includes(value);
}

/** The adapter's recurrence → gRPC message; absent stays absent (proto3 optional). */
export function toProtoRecurrence(recurrence: ProviderRecurrence): providers.Recurrence {
  const approval = recurrence.approval;
  return {
    provider_recurrence_id: recurrence.providerRecurrenceId,
    status: recurrence.status,
    provider_status: recurrence.providerStatus,
    cycles: recurrence.cycles,
    approval: approval && {
      qr_code: approval.qrCode,
      ...(approval.qrCodeBase64 !== undefined ? { qr_code_base64: approval.qrCodeBase64 } : {}),
      ...(approval.url !== undefined ? { url: approval.url } : {}),
    },
    ...(recurrence.approvalChargeId !== undefined ? { approval_charge_id: recurrence.approvalChargeId } : {}),
    cycle_charge_ids: recurrence.cycleChargeIds ?? [],
  };
}

/** The adapter's cycle charge → gRPC message; absent stays absent (proto3 optional). */
export function toProtoCycleCharge(charge: ProviderCycleCharge): providers.CycleCharge {
  return {
    provider_charge_id: charge.providerChargeId,
    provider_recurrence_id: charge.providerRecurrenceId,
    status: charge.status,
    provider_status: charge.providerStatus,
    amount: charge.amount,
    due_date: charge.dueDate,
    failed_attempts: charge.failedAttempts,
    ...(charge.nextAttemptDate !== undefined ? { next_attempt_date: charge.nextAttemptDate } : {}),
    ...(charge.endToEndId !== undefined ? { end_to_end_id: charge.endToEndId } : {}),
  };
}

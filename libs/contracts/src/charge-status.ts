import { ChargeStatus } from './generated/orquestra/providers/v1/providers';

/**
 * A provider charge's status, the one form every hop uses: adapters map their provider's statuses
 * to it, the providers service answers it (as the proto enum, through the converters below) and
 * publishes it in `internal.provider_charge.updated`, and payments reads it.
 */
export const PROVIDER_CHARGE_STATUSES = ['pending', 'paid', 'failed', 'canceled'] as const;

export type ProviderChargeStatus = (typeof PROVIDER_CHARGE_STATUSES)[number];

// A local exhaustiveness check: contracts depends on no other project, so not platform's assertNever.
function unhandled(value: never): never {
  throw new Error(`unhandled charge status: ${JSON.stringify(value)}`);
}

export function chargeStatusToProto(status: ProviderChargeStatus): ChargeStatus {
  switch (status) {
    case 'pending':
      return ChargeStatus.CHARGE_STATUS_PENDING;
    case 'paid':
      return ChargeStatus.CHARGE_STATUS_PAID;
    case 'failed':
      return ChargeStatus.CHARGE_STATUS_FAILED;
    case 'canceled':
      return ChargeStatus.CHARGE_STATUS_CANCELED;
    default:
      return unhandled(status);
  }
}

export function chargeStatusFromProto(status: ChargeStatus): ProviderChargeStatus {
  switch (status) {
    case ChargeStatus.CHARGE_STATUS_PENDING:
      return 'pending';
    case ChargeStatus.CHARGE_STATUS_PAID:
      return 'paid';
    case ChargeStatus.CHARGE_STATUS_FAILED:
      return 'failed';
    case ChargeStatus.CHARGE_STATUS_CANCELED:
      return 'canceled';
    // An unset or unknown status (a newer providers service) says nothing final: the charge is
    // read as still open, so nothing is ended or paid on a value nobody understood.
    case ChargeStatus.CHARGE_STATUS_UNSPECIFIED:
    case ChargeStatus.UNRECOGNIZED:
      return 'pending';
    default:
      return unhandled(status);
  }
}

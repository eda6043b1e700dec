import { CYCLE_CHARGE_STATUSES } from '@orquestra/contracts';
import { assertNever, type ErrorCode } from '@orquestra/platform';

/**
 * Pix Automático cycles as payments (docs/subscriptions.md): the decisions about one cycle's
 * charge, pure. The subscriptions service chooses the payment id; the charge is sent once per
 * payment (providers CreateCycleCharge is idempotent on it) and its changes arrive as reports.
 */

/**
 * Codes after which the charge may exist or may be sent later with the same id: the provider
 * did not answer about this charge (it timed out, was unreachable, failed inside, limited the
 * rate). The payment stays pending without a charge and the caller tries again; every other
 * refusal is an answer about this charge (the provider creates its own cycles, the recurrence is
 * not active, a field it refuses) and ends the payment failed.
 */
const UNSENT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'provider_timeout',
  'provider_unavailable',
  'provider_error',
  'provider_rate_limited',
  'service_unavailable',
  'internal',
]);

/** What a refused CreateCycleCharge means for the cycle payment: failed, or still to send. */
export function cycleChargeRefusal(code: ErrorCode, deadlineExceeded: boolean): 'failed' | 'unsent' {
  if (deadlineExceeded || UNSENT_CODES.has(code)) return 'unsent';
  return 'failed';
}

/**
 * A cycle whose debit the payer's bank did not make (after the retries it allows). The providers
 * report no reason, and a missing balance is what the Banco Central names first for it.
 */
export const CYCLE_DEBIT_FAILED = {
  code: 'insufficient_funds',
  reason: 'O banco do pagador não debitou a cobrança do Pix Automático (por exemplo, por saldo insuficiente), nem nas novas tentativas.',
} as const;

export type CycleChargeStatus = (typeof CYCLE_CHARGE_STATUSES)[number];

/** What a cycle charge's status does to its payment (if it can still move). */
export type CycleChargeEffect = 'succeeded' | 'failed' | 'canceled' | 'none';

export function cycleChargeEffect(status: CycleChargeStatus): CycleChargeEffect {
  switch (status) {
    case 'paid':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'canceled';
    // Waiting for the debit day, or for the bank's next try: the payment stays pending.
    case 'scheduled':
    case 'retrying':
      return 'none';
    default:
      return assertNever(status);
  }
}

/** A status of the providers service's CycleCharge message (a string there). */
export function isCycleChargeStatus(value: string): value is CycleChargeStatus {
  return (CYCLE_CHARGE_STATUSES as readonly string[]).includes(value);
}

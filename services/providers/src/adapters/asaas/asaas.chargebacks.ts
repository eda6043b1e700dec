/**
 * Asaas card chargebacks: the exhaustive status maps and reading a webhook's payment as a dispute
 * report. Sources: psp-apis.md §3 (payment statuses CHARGEBACK_REQUESTED, CHARGEBACK_DISPUTE,
 * AWAITING_CHARGEBACK_REVERSAL; chargeback status REQUESTED|IN_DISPUTE|DISPUTE_LOST|REVERSED|DONE),
 * docs.asaas.com webhook events `PAYMENT_CHARGEBACK_REQUESTED`, `PAYMENT_CHARGEBACK_DISPUTE`,
 * `PAYMENT_AWAITING_CHARGEBACK_REVERSAL`.
 *
 * Unconfirmed (not in psp-apis.md, so not relied on): that the webhook's `payment.chargeback` object
 * carries an id of its own, a value of its own (partial chargebacks) or a deadline. Hence:
 * - the dispute is named by the Asaas payment id (`pay_…`), one chargeback per payment;
 * - `amount` is the payment's `value` (reais → cents);
 * - no `answerDueAt`: Asaas decides, no local deadline applies to provider disputes.
 * `payment.chargeback{status, reason}` is read when present; without it the payment status decides.
 *
 * Evidence: Asaas takes a chargeback defense only as uploaded documents (multipart files; psp-apis.md
 * names no endpoint), while ours is text plus links. We do not fabricate a document from the text:
 * `acceptsEvidence: false`, and POST /v1/disputes/{id}/evidence answers dispute_evidence_not_supported
 * (the merchant answers in Asaas's dashboard).
 */
import { assertNever } from '@orquestra/platform';
import type { ProviderDispute, ProviderDisputeStatus } from '../provider-disputes';
import { reaisToCents, type AsaasPaymentStatus } from './asaas.transformers';

/** Every documented `payment.chargeback.status`. */
export const ASAAS_CHARGEBACK_STATUSES = ['REQUESTED', 'IN_DISPUTE', 'DISPUTE_LOST', 'REVERSED', 'DONE'] as const;
export type AsaasChargebackStatus = (typeof ASAAS_CHARGEBACK_STATUSES)[number];

/** The webhook events about chargebacks (subscribed in asaas.webhook.ts). */
export const CHARGEBACK_EVENTS = ['PAYMENT_CHARGEBACK_REQUESTED', 'PAYMENT_CHARGEBACK_DISPUTE', 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL'] as const;

/** The payment statuses that mean a chargeback is in progress or decided. */
type ChargebackPaymentStatus = Extract<AsaasPaymentStatus, 'CHARGEBACK_REQUESTED' | 'CHARGEBACK_DISPUTE' | 'AWAITING_CHARGEBACK_REVERSAL'>;

export interface AsaasChargeback {
  status: AsaasChargebackStatus;
  reason?: string | null;
}

/**
 * Every chargeback status; a new one fails to compile here. REVERSED (the chargeback was undone:
 * the money comes back to the merchant) is won; DISPUTE_LOST and DONE (finished: the cardholder
 * keeps the money) are lost.
 */
export function mapChargebackStatus(status: AsaasChargebackStatus): ProviderDisputeStatus {
  switch (status) {
    case 'REQUESTED':
      return 'open';
    case 'IN_DISPUTE':
      return 'under_review';
    case 'REVERSED':
      return 'won';
    case 'DISPUTE_LOST':
    case 'DONE':
      return 'lost';
    default:
      return assertNever(status);
  }
}

/**
 * The payment status alone, for a report without the chargeback object: received (open), documents
 * sent (under_review), dispute won and awaiting the acquirer's transfer (won).
 */
export function mapChargebackPaymentStatus(status: ChargebackPaymentStatus): ProviderDisputeStatus {
  switch (status) {
    case 'CHARGEBACK_REQUESTED':
      return 'open';
    case 'CHARGEBACK_DISPUTE':
      return 'under_review';
    case 'AWAITING_CHARGEBACK_REVERSAL':
      return 'won';
    default:
      return assertNever(status);
  }
}

const isChargebackStatus = (value: unknown): value is AsaasChargebackStatus => (ASAAS_CHARGEBACK_STATUSES as readonly unknown[]).includes(value);
const isChargebackPaymentStatus = (value: unknown): value is ChargebackPaymentStatus =>
  value === 'CHARGEBACK_REQUESTED' || value === 'CHARGEBACK_DISPUTE' || value === 'AWAITING_CHARGEBACK_REVERSAL';

export type ChargebackReading = { kind: 'none' } | { kind: 'dispute'; dispute: ProviderDispute } | { kind: 'unknown_status'; status: string } | { kind: 'malformed' };

/**
 * The dispute a webhook's `payment` reports: any `PAYMENT_*` event whose payment carries a
 * `chargeback` object (a decision may arrive on PAYMENT_UPDATED or PAYMENT_REFUNDED too) or is in a
 * chargeback status. `none` for the other events; an unknown chargeback status is reported to the
 * caller (acknowledged and logged, never guessed).
 */
export function chargebackOf(payment: unknown): ChargebackReading {
  if (typeof payment !== 'object' || payment === null || Array.isArray(payment)) return { kind: 'none' };
  const p = payment as { id?: unknown; value?: unknown; status?: unknown; chargeback?: unknown };
  const chargeback = p.chargeback;
  const hasChargeback = typeof chargeback === 'object' && chargeback !== null && !Array.isArray(chargeback);
  if (!hasChargeback && !isChargebackPaymentStatus(p.status)) return { kind: 'none' };
  if (typeof p.id !== 'string' || p.id.length === 0) return { kind: 'malformed' };
  let amount: number | undefined;
  try {
    amount = typeof p.value === 'string' ? reaisToCents(p.value) : undefined;
  } catch {
    return { kind: 'malformed' };
  }

  let status: ProviderDisputeStatus;
  let providerStatus: string;
  let reason: string | undefined;
  if (hasChargeback) {
    const c = chargeback as { status?: unknown; reason?: unknown };
    if (typeof c.status !== 'string') return { kind: 'malformed' };
    if (!isChargebackStatus(c.status)) return { kind: 'unknown_status', status: c.status };
    status = mapChargebackStatus(c.status);
    providerStatus = c.status;
    reason = typeof c.reason === 'string' && c.reason.length > 0 ? c.reason : undefined;
  } else {
    const paymentStatus = p.status as ChargebackPaymentStatus;
    status = mapChargebackPaymentStatus(paymentStatus);
    providerStatus = paymentStatus;
  }
  return {
    kind: 'dispute',
    dispute: {
      providerDisputeId: p.id,
      kind: 'chargeback',
      status,
      providerStatus,
      providerPaymentId: p.id,
      ...(amount !== undefined && amount > 0 ? { amount } : {}),
      ...(reason ? { reason } : {}),
      acceptsEvidence: false,
    },
  };
}

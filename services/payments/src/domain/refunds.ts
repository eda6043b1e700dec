import type { RefundStatus } from '@orquestra/contracts';
import { canTransition, type PaymentStatus } from './payment-status';

/**
 * Refund rules, pure. Decisions (docs/decisions.md "Refunds"):
 * - A payment is refundable while `succeeded` or `partially_refunded`.
 * - `pending` refunds reserve their amount: what is still refundable is the amount minus the
 *   succeeded and the pending refunds, so concurrent requests can never ask for more than was paid.
 * - `amount_refunded` counts succeeded refunds only (money the provider confirmed went back), and
 *   the payment moves to `partially_refunded` / `refunded` when a refund succeeds. A failed refund
 *   frees its amount and changes nothing else.
 * - A refund's final state (succeeded, failed) never changes again.
 */

// The statuses themselves are the public contract's (libs/contracts); the rules are ours.
export { REFUND_STATUSES, type RefundStatus } from '@orquestra/contracts';

export interface RefundRecord {
  id: string;
  amount: number;
  status: RefundStatus;
  reason: string;
  /** service: asked through our API; provider: made in the provider's dashboard. */
  source: 'service' | 'provider';
  provider_refund_id: string;
  failure_code: string;
  failure_reason: string;
  /**
   * False while the refund is only a reservation held by an in-flight request (nothing sent to
   * the provider's answer yet, no event). Set with `refund.created` once the provider accepted it
   * or its outcome became unknown; a reservation the provider refused is removed instead.
   */
  announced: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface RefundablePayment {
  status: PaymentStatus;
  amount: number;
  amount_refunded: number;
  refunds: RefundRecord[];
}

const REFUNDABLE: readonly PaymentStatus[] = ['succeeded', 'partially_refunded'];

export function isRefundable(status: PaymentStatus): boolean {
  return REFUNDABLE.includes(status);
}

const sum = (refunds: RefundRecord[], status: RefundStatus) => refunds.filter((r) => r.status === status).reduce((total, r) => total + r.amount, 0);

export function succeededAmount(refunds: RefundRecord[]): number {
  return sum(refunds, 'succeeded');
}

/** What can still be refunded: the amount minus succeeded and pending (reserved) refunds. */
export function remainingRefundable(payment: Pick<RefundablePayment, 'amount' | 'refunds'>): number {
  return Math.max(0, payment.amount - sum(payment.refunds, 'succeeded') - sum(payment.refunds, 'pending'));
}

export type RefundRequestCheck =
  | { ok: true; amount: number }
  | { ok: false; reason: 'not_refundable' | 'too_small' | 'exceeds_remaining'; remaining: number };

/** The amount a refund request gets: the one asked for, or (omitted) everything still refundable. */
export function checkRefundRequest(payment: RefundablePayment, requested: number | undefined): RefundRequestCheck {
  const remaining = remainingRefundable(payment);
  if (!isRefundable(payment.status)) return { ok: false, reason: 'not_refundable', remaining };
  if (requested !== undefined && (!Number.isSafeInteger(requested) || requested < 1)) return { ok: false, reason: 'too_small', remaining };
  const amount = requested ?? remaining;
  if (amount > remaining || amount < 1) return { ok: false, reason: 'exceeds_remaining', remaining };
  return { ok: true, amount };
}

/** What the provider says about one refund (our request's answer, a webhook or a sync). */
export interface RefundReport {
  provider_refund_id: string;
  /** The key we sent (our refund id, possibly in the provider's id alphabet); absent if not ours. */
  refund_key?: string;
  amount: number;
  status: RefundStatus;
  failure_code?: string;
  failure_reason?: string;
  reason?: string;
}

/** The events a refund change produces, in order. */
export type RefundEventType = 'refund.created' | 'refund.succeeded' | 'refund.failed' | 'payment.partially_refunded' | 'payment.refunded';

export interface RefundPlan {
  refunds: RefundRecord[];
  amount_refunded: number;
  status: PaymentStatus;
  events: { type: RefundEventType; refundId?: string }[];
}

const alnum = (id: string) => id.replace(/[^a-zA-Z0-9]/g, '');

/** Our refund that a provider report is about: by the key we sent, else by the provider's id. */
export function findReported(refunds: RefundRecord[], report: Pick<RefundReport, 'provider_refund_id' | 'refund_key'>): RefundRecord | undefined {
  const key = alnum(report.refund_key ?? '');
  return (
    (key ? refunds.find((r) => r.source === 'service' && alnum(r.id) === key) : undefined) ??
    (report.provider_refund_id ? refunds.find((r) => r.provider_refund_id === report.provider_refund_id) : undefined)
  );
}

/** Our refund asked for and not yet named by the provider (its answer is pending or was lost). */
const awaitingProviderId = (r: RefundRecord) => r.source === 'service' && r.status === 'pending' && !r.provider_refund_id;

/**
 * Applies provider reports to a payment's refunds: ours move forward (reservation → announced,
 * pending → final), refunds we never asked for are added with source `provider`; amounts and the
 * payment status follow the succeeded refunds. Null when nothing changes (replays are no-ops).
 */
export function planReports(payment: RefundablePayment, reports: RefundReport[], now: Date, newRefundId: () => string): RefundPlan | null {
  const refunds = payment.refunds.map((r) => ({ ...r }));
  const events: RefundPlan['events'] = [];
  for (const report of reports) {
    const known = findReported(refunds, report);
    // A refund reported without our key (Mercado Pago, Asaas: their reads do not echo it) while one
    // of ours still waits for the provider's id may be that very refund, seen before its answer was
    // recorded: it is left for the next webhook or sync rather than counted twice.
    if (!known && !alnum(report.refund_key ?? '') && refunds.some(awaitingProviderId)) continue;
    // More money back than was paid cannot be: a provider-made refund that would pass the amount
    // is the same money reported twice (a lost MED returned by us and by the provider's own
    // devolução), never counted again.
    if (!known && report.status === 'succeeded' && succeededAmount(refunds) + report.amount > payment.amount) continue;
    if (!known) {
      const added: RefundRecord = {
        id: newRefundId(),
        amount: report.amount,
        status: report.status,
        reason: report.reason ?? '',
        source: 'provider',
        provider_refund_id: report.provider_refund_id,
        failure_code: report.status === 'failed' ? report.failure_code ?? 'refund_failed' : '',
        failure_reason: report.status === 'failed' ? report.failure_reason ?? '' : '',
        announced: true,
        created_at: now,
        updated_at: now,
      };
      refunds.push(added);
      events.push({ type: 'refund.created', refundId: added.id });
      if (added.status !== 'pending') events.push({ type: `refund.${added.status}`, refundId: added.id });
      continue;
    }
    let changed = false;
    if (!known.announced) {
      known.announced = true;
      events.push({ type: 'refund.created', refundId: known.id });
      changed = true;
    }
    if (!known.provider_refund_id && report.provider_refund_id) {
      known.provider_refund_id = report.provider_refund_id;
      changed = true;
    }
    if (known.status === 'pending' && report.status !== 'pending') {
      known.status = report.status;
      if (report.status === 'failed') {
        known.failure_code = report.failure_code || 'refund_failed';
        known.failure_reason = report.failure_reason || 'O provedor não concluiu a devolução.';
      }
      events.push({ type: `refund.${report.status}`, refundId: known.id });
      changed = true;
    }
    if (changed) known.updated_at = now;
  }
  if (events.length === 0) return null;
  return withTotals(payment, refunds, events);
}

/** Amount refunded and payment status after `refunds`, with the payment's event when they moved. */
export function withTotals(payment: RefundablePayment, refunds: RefundRecord[], events: RefundPlan['events']): RefundPlan {
  const amountRefunded = succeededAmount(refunds);
  let status = payment.status;
  const all = [...events];
  if (amountRefunded !== payment.amount_refunded && amountRefunded > 0) {
    const next: PaymentStatus = amountRefunded >= payment.amount ? 'refunded' : 'partially_refunded';
    // A refund reported for a payment not paid here (yet) changes the amounts, not the status.
    if (canTransition(payment.status, next)) {
      status = next;
      all.push({ type: next === 'refunded' ? 'payment.refunded' : 'payment.partially_refunded' });
    }
  }
  return { refunds, amount_refunded: amountRefunded, status, events: all };
}

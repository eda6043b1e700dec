/**
 * Refunds of Pix payments, as Mercado Pago runs them (`POST /v1/payments/{id}/refunds`):
 * - each refund is keyed by the request's X-Idempotency-Key: a repeat answers the same refund;
 * - a Pix refund is created `in_process` (the answer carries it when the request sends
 *   `X-Render-In-Process-Refunds: true`) and turns `approved` a moment later (RefundSettler), after
 *   which the payment reads `approved/partially_refunded`, or `refunded/refunded` once nothing is
 *   left, and its `payment.updated` notification is sent;
 * - more than what is left → 400 (see mp-errors `refundAmountExceeded`).
 * Sources: API reference "Create refund" / "Get list of refunds"
 * (mercadopago.com.br/developers/en/reference/chargebacks/_payments_id_refunds/post) and the Pix
 * refund guide (developers/en/docs/checkout-api/payment-management/cancellations-and-refunds/refund-pix).
 */
import type { EmulatorState, StoredPayment } from './emulator-state';
import { Timers, type Logger } from '../../kit';
import { mpErrors } from './mp-errors';
import { centsToReais, mpDate, reaisToCents } from './mp-format';
import type { WebhookSender } from './webhook-sender';

export type RefundStatus = 'in_process' | 'approved' | 'rejected' | 'cancelled';

export interface StoredRefund {
  id: number;
  paymentId: number;
  amountCents: number;
  status: RefundStatus;
  idempotencyKey: string;
  createdAt: Date;
  /** `collector` for refunds asked through the API, `admin` for those made "in the dashboard". */
  sourceType: 'collector' | 'admin';
}

let nextRefundId = 1_980_000_000 + Math.floor(Math.random() * 1_000_000);

/** What can still be refunded: the amount minus every refund not rejected or cancelled. */
export function refundableCents(payment: StoredPayment): number {
  const taken = (payment.refunds ?? []).filter((r) => r.status === 'in_process' || r.status === 'approved').reduce((sum, r) => sum + r.amountCents, 0);
  return payment.request.amountCents - taken;
}

/** The amount of `POST …/refunds`: absent means everything left (a total refund). */
export function refundAmountOf(body: unknown, payment: StoredPayment): number {
  const raw = (body ?? {}) as Record<string, unknown>;
  if (raw['amount'] === undefined || raw['amount'] === null) return refundableCents(payment);
  if (typeof raw['amount'] !== 'number') throw mpErrors.refundAmountNotNumeric();
  const cents = reaisToCents(raw['amount']);
  if (cents === undefined) throw mpErrors.refundAmountNotPositive();
  return cents;
}

/** Creates a refund (or answers the one this key made); throws the documented errors. */
export function createRefund(payment: StoredPayment, amountCents: number | undefined, idempotencyKey: string, sourceType: StoredRefund['sourceType'], now: Date): { refund: StoredRefund; created: boolean } {
  const existing = (payment.refunds ?? []).find((r) => r.idempotencyKey === idempotencyKey);
  if (existing) return { refund: existing, created: false };
  if (payment.status !== 'approved') throw mpErrors.refundInvalidState();
  const amount = amountCents ?? refundableCents(payment);
  if (amount <= 0) throw mpErrors.refundAmountNotPositive();
  if (amount > refundableCents(payment)) throw mpErrors.refundAmountExceeded();
  nextRefundId += 1;
  const refund: StoredRefund = { id: nextRefundId, paymentId: payment.id, amountCents: amount, status: 'in_process', idempotencyKey, createdAt: now, sourceType };
  payment.refunds = [...(payment.refunds ?? []), refund];
  return { refund, created: true };
}

/** An approved refund moves the payment to partially_refunded, or refunded when nothing is left. */
export function approveRefund(payment: StoredPayment, refund: StoredRefund, now: Date): boolean {
  if (refund.status !== 'in_process') return false;
  refund.status = 'approved';
  const refunded = (payment.refunds ?? []).filter((r) => r.status === 'approved').reduce((sum, r) => sum + r.amountCents, 0);
  if (refunded >= payment.request.amountCents) {
    payment.status = 'refunded';
    payment.statusDetail = 'refunded';
  } else {
    payment.statusDetail = 'partially_refunded';
  }
  payment.updatedAt = now;
  return true;
}

export function refundJson(refund: StoredRefund) {
  return {
    id: refund.id,
    payment_id: refund.paymentId,
    amount: centsToReais(refund.amountCents),
    metadata: {},
    source: { id: String(refund.paymentId), name: refund.sourceType === 'admin' ? 'Mercado Pago' : 'Test Test', type: refund.sourceType },
    date_created: mpDate(refund.createdAt),
    unique_sequence_number: null,
    refund_mode: 'standard',
    adjustment_amount: 0,
    status: refund.status,
    reason: null,
    labels: [],
    amount_refunded_to_payer: centsToReais(refund.amountCents),
    partition_details: [],
  };
}

/** Approves in_process refunds after `settleAfterMs` and notifies the payment's URL. */
export class RefundSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly state: EmulatorState,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
  ) {}

  schedule(payment: StoredPayment, refund: StoredRefund): void {
    this.timers.after(this.settleAfterMs, () => {
      if (!approveRefund(payment, refund, this.state.now())) return;
      const scheduled = this.sender.notify(payment, 'payment.updated');
      this.logger.info({ payment: payment.id, refund: refund.id, status: payment.status, webhook: scheduled }, 'refund approved');
    });
  }

  close(): void {
    this.timers.clear();
  }
}

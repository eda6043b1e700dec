/**
 * Refunds ("estornos") of received Pix charges, as Asaas runs them (`POST /v3/payments/{id}/refund`
 * `{value?, description?}`; docs.asaas.com "Estornar cobrança" and "Refunds"):
 * - `value` omitted = everything left; partial refunds are allowed;
 * - the answer is the payment: `REFUNDED` once nothing is left, otherwise still `RECEIVED`, with
 *   `refunds: [{dateCreated, status, value, description, transactionReceiptUrl}]` (no id: Asaas
 *   gives refunds none); `GET /v3/payments/{id}/refunds` lists them (`{object:"list", data}`);
 * - a refund starts `PENDING` and becomes `DONE` a moment later (RefundSettler), when the
 *   `PAYMENT_REFUNDED` (nothing left) or `PAYMENT_PARTIALLY_REFUNDED` webhook is sent;
 * - there is no idempotency key: the same request twice makes two refunds (as at Asaas).
 * Error codes for refusals are the emulator's best guess (`invalid_action`, `invalid_value`).
 */
import { asaasErrors } from './asaas-errors';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { Timers, type Logger } from '../../kit';
import { Reais } from './money-json';
import { spDateTime } from './sao-paulo-time';
import { reversalsFor } from './splits';
import type { WebhookSender } from './webhook-sender';

export type RefundStatus = 'PENDING' | 'DONE' | 'CANCELLED';

export interface StoredRefund {
  valueCents: number;
  status: RefundStatus;
  description?: string;
  createdAt: Date;
  receiptId: string;
}

export function refundableCents(payment: StoredPayment): number {
  return payment.valueCents - (payment.refunds ?? []).filter((r) => r.status !== 'CANCELLED').reduce((sum, r) => sum + r.valueCents, 0);
}

/** Records a refund; throws Asaas-shaped errors when the charge cannot be refunded by that much. */
export function createRefund(payment: StoredPayment, valueCents: number | undefined, description: string | undefined, now: Date): StoredRefund {
  if (payment.deleted || (payment.status !== 'RECEIVED' && payment.status !== 'CONFIRMED' && payment.status !== 'REFUNDED')) {
    throw asaasErrors.invalidAction(`Não é possível estornar uma cobrança com status ${payment.deleted ? 'DELETED' : payment.status}.`);
  }
  const left = refundableCents(payment);
  if (left <= 0) throw asaasErrors.invalidAction('Esta cobrança já foi totalmente estornada.');
  const value = valueCents ?? left;
  if (value <= 0) throw asaasErrors.invalid('value', 'O valor do estorno deve ser maior que zero.');
  if (value > left) throw asaasErrors.invalid('value', `O valor do estorno não pode ser maior que o valor disponível para estorno (R$ ${(left / 100).toFixed(2)}).`);
  const refund: StoredRefund = { valueCents: value, status: 'PENDING', createdAt: now, receiptId: String(now.getTime()) + String(Math.floor(Math.random() * 1e6)), ...(description ? { description } : {}) };
  payment.refunds = [...(payment.refunds ?? []), refund];
  if (refundableCents(payment) === 0) payment.status = 'REFUNDED';
  return refund;
}

export function refundJson(refund: StoredRefund) {
  return {
    dateCreated: spDateTime(refund.createdAt),
    status: refund.status,
    value: new Reais(refund.valueCents),
    description: refund.description ?? null,
    transactionReceiptUrl: refund.status === 'DONE' ? `https://sandbox.asaas.com/comprovantes/${refund.receiptId}` : null,
  };
}

/**
 * The refunded money leaves the balances when the refund is made: each credited split part's
 * proportional share from its wallet (splits.ts), the rest from the charge's account.
 */
export function takeRefundedMoney(state: EmulatorState, payment: StoredPayment, refund: StoredRefund): void {
  const reversals = reversalsFor(payment.split, payment.valueCents, payment.valueCents - refundableCents(payment));
  for (const { part, cents } of reversals) {
    state.transfers.debit(part.accountId, cents);
    part.refundedCents += cents;
  }
  state.transfers.debit(payment.accountId, refund.valueCents - reversals.reduce((sum, r) => sum + r.cents, 0));
}

/** Turns PENDING refunds DONE after `settleAfterMs` and sends the payment's refund webhook. */
export class RefundSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly state: EmulatorState,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
  ) {}

  schedule(payment: StoredPayment, refund: StoredRefund, toJson: (p: StoredPayment) => unknown): void {
    takeRefundedMoney(this.state, payment, refund);
    this.timers.after(this.settleAfterMs, () => {
      if (refund.status !== 'PENDING') return;
      refund.status = 'DONE';
      const event = payment.status === 'REFUNDED' ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED';
      this.sender.paymentEvent(payment, event, toJson);
      this.logger.info({ account: payment.accountId, payment: payment.id, event }, 'refund done');
    });
  }

  close(): void {
    this.timers.clear();
  }
}

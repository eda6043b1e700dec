/**
 * Refunds of received Pix, as Woovi runs them (developers.woovi.com "Reembolso": `POST
 * /api/v1/refund` `{correlationID, transactionEndToEndId, value (cents), comment? ≤ 140}`; `GET
 * /api/v1/refund/{id}`; `GET /api/v1/charge/{id}/refund` → `{refunds:[{status, value,
 * correlationID, endToEndId, time, comment}]}`):
 * - the refund's correlationID is its idempotency key: a repeat answers the same refund;
 * - partial refunds are allowed up to what is left of the Pix;
 * - a refund is `IN_PROCESSING`, then `CONFIRMED` a moment later (RefundSettler), when the
 *   `OPENPIX:TRANSACTION_REFUND_RECEIVED` webhook is sent (documented payload: `charge` of the
 *   original transaction and `pix` = the refund's own Pix, with `partial`).
 * Error wordings are the emulator's guess (Woovi answers `{error}` with HTTP 400).
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorState, StoredCharge } from './emulator-state';
import { Timers, type Logger } from '../../kit';
import type { WebhookSender } from './webhook-sender';
import { newEndToEndId } from './woovi-ids';
import { wooviErrors } from './woovi-errors';

export type RefundStatus = 'IN_PROCESSING' | 'CONFIRMED' | 'REJECTED';

export interface StoredRefund {
  refundId: string;
  correlationID: string;
  value: number;
  status: RefundStatus;
  comment?: string;
  time: Date;
  /** The refund's own Pix (a "devolução" has an end-to-end id of its own, starting with D). */
  endToEndId: string;
}

const refundsOf = new WeakMap<StoredCharge, StoredRefund[]>();

export function chargeRefunds(charge: StoredCharge): StoredRefund[] {
  return refundsOf.get(charge) ?? [];
}

export function refundableCents(charge: StoredCharge): number {
  return charge.value - chargeRefunds(charge).filter((r) => r.status !== 'REJECTED').reduce((sum, r) => sum + r.value, 0);
}

/** The account's refund with this correlationID or refundId, and its charge. */
export function findRefund(state: EmulatorState, accountId: string, id: string): { charge: StoredCharge; refund: StoredRefund } | undefined {
  for (const charge of state.listCharges(accountId)) {
    const refund = chargeRefunds(charge).find((r) => r.correlationID === id || r.refundId === id);
    if (refund) return { charge, refund };
  }
  return undefined;
}

export interface RefundRequest {
  correlationID: string;
  value?: number;
  comment?: string;
}

/** Creates a refund of a paid charge (or answers the one with this correlationID). */
export function createRefund(state: EmulatorState, charge: StoredCharge, request: RefundRequest): { refund: StoredRefund; created: boolean } {
  const existing = findRefund(state, charge.accountId, request.correlationID);
  if (existing) return { refund: existing.refund, created: false };
  if (charge.status !== 'COMPLETED' || !charge.pix) throw wooviErrors.invalid('Somente cobranças pagas (COMPLETED) podem ser reembolsadas');
  const left = refundableCents(charge);
  const value = request.value ?? left;
  if (!Number.isSafeInteger(value) || value <= 0) throw wooviErrors.invalid('O valor do reembolso deve ser um inteiro positivo em centavos');
  if (value > left) throw wooviErrors.invalid(`Valor do reembolso maior que o valor disponível para reembolso (${left})`);
  const now = state.now();
  const refund: StoredRefund = {
    refundId: Buffer.from(`PixTransactionRefund:${randomBytes(12).toString('hex')}`).toString('base64'),
    correlationID: request.correlationID,
    value,
    status: 'IN_PROCESSING',
    time: now,
    endToEndId: newEndToEndId(now).replace(/^E/, 'D'),
    ...(request.comment ? { comment: request.comment } : {}),
  };
  refundsOf.set(charge, [...chargeRefunds(charge), refund]);
  // The refunded money leaves the balance when the refund is made.
  state.payments.debit(charge.accountId, value);
  return { refund, created: true };
}

/** `POST /api/v1/refund` and `GET /api/v1/refund/{id}` answer `{refund: refundJson}`. */
export function refundJson(refund: StoredRefund) {
  return {
    status: refund.status,
    value: refund.value,
    correlationID: refund.correlationID,
    refundId: refund.refundId,
    time: refund.time.toISOString(),
    comment: refund.comment ?? null,
  };
}

/** An item of `GET /api/v1/charge/{id}/refund`. */
export function chargeRefundJson(refund: StoredRefund) {
  return {
    status: refund.status,
    value: refund.value,
    correlationID: refund.correlationID,
    endToEndId: refund.endToEndId,
    time: refund.time.toISOString(),
    ...(refund.comment ? { comment: refund.comment } : {}),
  };
}

/** Confirms IN_PROCESSING refunds after `settleAfterMs` and sends the refund webhook. */
export class RefundSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly state: EmulatorState,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
    private readonly chargeJson: (charge: StoredCharge) => unknown,
  ) {}

  schedule(charge: StoredCharge, refund: StoredRefund): void {
    this.timers.after(this.settleAfterMs, () => {
      if (refund.status !== 'IN_PROCESSING') return;
      refund.status = 'CONFIRMED';
      const event = 'OPENPIX:TRANSACTION_REFUND_RECEIVED';
      const sent = this.sender.notifyWith(event, charge, {
        event,
        charge: this.chargeJson(charge),
        pixQrCode: null,
        pix: {
          value: refund.value,
          time: refund.time.toISOString(),
          endToEndId: refund.endToEndId,
          transactionID: refund.refundId,
          correlationID: refund.correlationID,
          type: 'REFUND',
          partial: refund.value < charge.value,
          ...(refund.comment ? { comment: refund.comment } : {}),
        },
      });
      this.logger.info({ account: charge.accountId, charge: charge.correlationID, refund: refund.correlationID, webhooks: sent }, 'refund confirmed');
    });
  }

  close(): void {
    this.timers.clear();
  }
}

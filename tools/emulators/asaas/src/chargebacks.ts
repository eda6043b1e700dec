/**
 * Card chargebacks, opened and decided through the control port (the card networks' side is not
 * emulated). What the emulator sends, per psp-apis.md §3 (payment statuses and webhook events
 * CHARGEBACK_REQUESTED, CHARGEBACK_DISPUTE, AWAITING_CHARGEBACK_REVERSAL; chargeback status
 * REQUESTED|IN_DISPUTE|DISPUTE_LOST|REVERSED|DONE) and, where Asaas's documents say nothing that
 * psp-apis.md records (unconfirmed), a choice:
 * - open: payment CHARGEBACK_REQUESTED, `chargeback{status: REQUESTED, reason}`, PAYMENT_CHARGEBACK_REQUESTED;
 * - dispute (documents sent, as from Asaas's dashboard): CHARGEBACK_DISPUTE, IN_DISPUTE, PAYMENT_CHARGEBACK_DISPUTE;
 * - won: AWAITING_CHARGEBACK_REVERSAL, REVERSED, PAYMENT_AWAITING_CHARGEBACK_REVERSAL;
 * - lost: the payment keeps its status, DISPUTE_LOST (after a dispute) or DONE (never disputed),
 *   sent as PAYMENT_UPDATED (which event carries a loss is unconfirmed).
 */
import type { StoredPayment } from './emulator-state';
import type { WebhookSender } from './webhook-sender';

export type ChargebackPaymentStatus = 'CHARGEBACK_REQUESTED' | 'CHARGEBACK_DISPUTE' | 'AWAITING_CHARGEBACK_REVERSAL';
export type ChargebackStatus = 'REQUESTED' | 'IN_DISPUTE' | 'DISPUTE_LOST' | 'REVERSED' | 'DONE';
export type ChargebackDecision = 'dispute' | 'won' | 'lost';

export interface StoredChargeback {
  status: ChargebackStatus;
  reason: string;
  /** The last chargeback event sent, for a redelivery with the same id. */
  lastEvent?: { id: string; name: string };
}

export class ChargebackRefused extends Error {}

type ToJson = (p: StoredPayment) => unknown;

function send(sender: WebhookSender, payment: StoredPayment, event: string, toJson: ToJson): void {
  const id = sender.paymentEvent(payment, event, toJson);
  if (payment.chargeback) payment.chargeback.lastEvent = { id, name: event };
}

/** Only a card charge paid and not refunded, without a chargeback, can be charged back. */
export function openChargeback(sender: WebhookSender, payment: StoredPayment, reason: string, toJson: ToJson): void {
  if (payment.deleted || payment.billingType === 'PIX' || (payment.status !== 'CONFIRMED' && payment.status !== 'RECEIVED')) {
    throw new ChargebackRefused(`charge is ${payment.deleted ? 'deleted' : `${payment.billingType} ${payment.status}`}`);
  }
  if (payment.chargeback) throw new ChargebackRefused('charge already has a chargeback');
  payment.status = 'CHARGEBACK_REQUESTED';
  payment.chargeback = { status: 'REQUESTED', reason };
  send(sender, payment, 'PAYMENT_CHARGEBACK_REQUESTED', toJson);
}

export function decideChargeback(sender: WebhookSender, payment: StoredPayment, decision: ChargebackDecision, toJson: ToJson): void {
  const chargeback = payment.chargeback;
  if (!chargeback || (chargeback.status !== 'REQUESTED' && chargeback.status !== 'IN_DISPUTE')) {
    throw new ChargebackRefused(chargeback ? `chargeback is ${chargeback.status}` : 'charge has no chargeback');
  }
  switch (decision) {
    case 'dispute':
      if (chargeback.status !== 'REQUESTED') throw new ChargebackRefused('chargeback is already in dispute');
      payment.status = 'CHARGEBACK_DISPUTE';
      chargeback.status = 'IN_DISPUTE';
      return send(sender, payment, 'PAYMENT_CHARGEBACK_DISPUTE', toJson);
    case 'won':
      payment.status = 'AWAITING_CHARGEBACK_REVERSAL';
      chargeback.status = 'REVERSED';
      return send(sender, payment, 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL', toJson);
    case 'lost':
      chargeback.status = chargeback.status === 'IN_DISPUTE' ? 'DISPUTE_LOST' : 'DONE';
      return send(sender, payment, 'PAYMENT_UPDATED', toJson);
  }
}

/** Sends the last chargeback event again with its id, the payment as it is now (at-least-once delivery). */
export function redeliverChargeback(sender: WebhookSender, payment: StoredPayment, toJson: ToJson): string {
  const last = payment.chargeback?.lastEvent;
  if (!last) throw new ChargebackRefused('charge has no chargeback event');
  return sender.paymentEvent(payment, last.name, toJson, last.id);
}

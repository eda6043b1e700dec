/**
 * A card typed on the invoice page (or sent by the control port): approved → CONFIRMED and
 * `PAYMENT_CONFIRMED`; declined → the charge stays PENDING (the buyer may try another card, as on
 * Asaas's page) and the decline event is sent. Shared by the page and the control routes.
 */
import type { EmulatorState, StoredPayment } from './emulator-state';
import type { CardOutcome } from './test-cards';
import type { WebhookSender } from './webhook-sender';

/** Open for a card: not removed, awaiting payment, and a card (or buyer-chosen) charge, not Pix or boleto. */
export function cardPayable(payment: StoredPayment): boolean {
  return !payment.deleted && (payment.billingType === 'CREDIT_CARD' || payment.billingType === 'UNDEFINED') && (payment.status === 'PENDING' || payment.status === 'OVERDUE');
}

export function applyCard(state: EmulatorState, sender: WebhookSender, payment: StoredPayment, outcome: Exclude<CardOutcome, { kind: 'invalid' }>, toJson: (p: StoredPayment) => unknown): void {
  if (outcome.kind === 'approved') {
    state.confirmByCard(payment, { last4: outcome.last4, brand: outcome.brand });
    sender.paymentEvent(payment, 'PAYMENT_CONFIRMED', toJson);
    return;
  }
  sender.paymentEvent(payment, outcome.event, toJson);
}

/**
 * Which Pagar.me events a charge's change of state produces, each with the payload Pagar.me puts
 * in `data`: the order for `order.*`, the charge for `charge.*` (docs.pagar.me "Webhooks" and its
 * order.paid example; event names from the dashboard's event list).
 */
import type { StoredOrder } from './emulator-state';
import { chargeJson, orderJson, type QrCodeUrl } from './order-json';
import type { WebhookSender } from './webhook-sender';

export type ChargeTransition = 'paid' | 'canceled' | 'refunded' | 'partial_canceled' | 'expired' | 'chargedback';

const EVENTS: Record<ChargeTransition, string[]> = {
  paid: ['charge.paid', 'order.paid'],
  canceled: ['order.canceled'],
  refunded: ['charge.refunded', 'order.canceled'],
  // Part of a paid charge returned: the charge stays paid (canceled_amount grows).
  partial_canceled: ['charge.partial_canceled'],
  expired: ['charge.payment_failed', 'order.payment_failed'],
  // A card chargeback (control port): the charge reads `chargedback` (docs.pagar.me "Chargeback - Novo status na Cobrança").
  chargedback: ['charge.chargedback'],
};

/** What a webhook configured without an explicit event list subscribes to. */
export const DEFAULT_WEBHOOK_EVENTS = [...new Set(Object.values(EVENTS).flat())].sort();

/** Sends the events of `transition`; answers how many were scheduled. */
export function publishTransition(sender: WebhookSender, order: StoredOrder, transition: ChargeTransition, qrCodeUrl: QrCodeUrl): number {
  let scheduled = 0;
  for (const type of EVENTS[transition]) {
    const data = type.startsWith('order.') ? orderJson(order, qrCodeUrl) : chargeJson(order, qrCodeUrl);
    if (sender.send(order.accountId, type, data, [order.charge.id])) scheduled += 1;
  }
  return scheduled;
}

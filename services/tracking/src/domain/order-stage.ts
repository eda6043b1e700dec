/**
 * Where a sale stands for the attribution tool, from the platform's events, and the rule that an
 * order never moves backwards (ad-tool.ts ORDER_STAGES). The tool has no `canceled`: a canceled
 * payment is sent as `refused` (the common mapping; ad-integrations.md §1 leaves it to us).
 */
import type { OrderStage } from '../tools/ad-tool';

/** The platform events tracking reads, with what of `data.object` decides the stage. */
export interface StageInput {
  type: string;
  /** The payment's method (pending counts only for pix and boleto: a card is never "waiting"). */
  method?: 'pix' | 'card' | 'boleto' | null;
  /** The payment's status in the event (`payment.created` of a Pix issued at creation is `pending`). */
  status?: string | null;
  /** A dispute's status on `dispute.closed` (`won`, `lost`, …). */
  dispute_status?: string | null;
}

/**
 * The stage an event puts the sale in, or null when it changes nothing for the tool
 * (`payment.partially_refunded`: the order stays paid; a dispute opened or won; a card pending).
 */
export function stageForEvent(event: StageInput): OrderStage | null {
  switch (event.type) {
    // A Pix or boleto issued at creation is stored pending with payment.created only; one whose
    // method the buyer chose on the payment page (or a cycle charge) gets payment.pending.
    case 'payment.created':
    case 'payment.pending':
      return (event.method === 'pix' || event.method === 'boleto') && event.status === 'pending' ? 'waiting_payment' : null;
    case 'payment.succeeded':
      return 'paid';
    case 'payment.failed':
    case 'payment.canceled':
      return 'refused';
    case 'payment.refunded':
      return 'refunded';
    case 'dispute.closed':
      return event.dispute_status === 'lost' ? 'chargedback' : null;
    default:
      return null;
  }
}

const RANK: Record<OrderStage, number> = { waiting_payment: 0, paid: 1, refused: 1, refunded: 2, chargedback: 2 };

export function stageRank(stage: OrderStage): number {
  return RANK[stage];
}

/**
 * Whether an order at `from` may be updated to `to`: only to a higher rank. The same stage again
 * is not a move, and of two stages of one rank the first reached stays (a refused order does not
 * become paid by a late event; a refunded one does not become chargedback). `from` null: the
 * order was never sent, any stage may be its first.
 */
export function canMove(from: OrderStage | null, to: OrderStage): boolean {
  if (from === null) return true;
  return RANK[to] > RANK[from];
}

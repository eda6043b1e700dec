/** The orders the tool keeps, per token (account) and orderId, with each status change. */
import type { PersistentStore } from '../../kit';
import { STATUS_RANK, type Order, type OrderStatus } from './order-validation';

export interface StoredOrder {
  token_id: string;
  orderId: string;
  status: OrderStatus;
  /** Every accepted post, in order: the status it set and when (emulator clock). */
  history: Array<{ status: OrderStatus; at: string }>;
  /** The last accepted body. */
  order: Order;
}

export type SaveResult = { saved: StoredOrder } | { regression: { current: OrderStatus; received: OrderStatus } } | { createdAtChanged: { stored: string; received: string } };

export class OrderBook implements PersistentStore<StoredOrder[]> {
  private readonly orders = new Map<string, StoredOrder>();

  private key = (tokenId: string, orderId: string) => `${tokenId}\u0000${orderId}`;

  /**
   * Creates or updates an order. Refuses a status of a lower rank, or another status of the same
   * rank (the first reached stays), and a createdAt other than the first one; the same status
   * again (a retry) is taken.
   */
  save(tokenId: string, order: Order, at: string): SaveResult {
    const existing = this.orders.get(this.key(tokenId, order.orderId));
    if (existing) {
      if (existing.order.createdAt !== order.createdAt) return { createdAtChanged: { stored: existing.order.createdAt, received: order.createdAt } };
      const moves = STATUS_RANK[order.status] > STATUS_RANK[existing.status] || order.status === existing.status;
      if (!moves) return { regression: { current: existing.status, received: order.status } };
      existing.status = order.status;
      existing.order = order;
      existing.history.push({ status: order.status, at });
      return { saved: existing };
    }
    const stored: StoredOrder = { token_id: tokenId, orderId: order.orderId, status: order.status, history: [{ status: order.status, at }], order };
    this.orders.set(this.key(tokenId, order.orderId), stored);
    return { saved: stored };
  }

  list(orderId?: string): StoredOrder[] {
    return [...this.orders.values()].filter((order) => orderId === undefined || order.orderId === orderId);
  }

  clear(): void {
    this.orders.clear();
  }

  get size(): number {
    return this.orders.size;
  }

  snapshot(): StoredOrder[] {
    return this.list();
  }

  restore(snapshot: StoredOrder[]): void {
    for (const order of snapshot ?? []) this.orders.set(this.key(order.token_id, order.orderId), order);
  }
}

import { disputeObjectSchema, paymentObjectSchema } from '@orquestra/contracts';
import { isDuplicateKeyError, type EventEnvelope } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { SaleDoc, SaleModel } from '../db/sale.model';
import type { VisitDoc } from '../db/visit.model';
import { stageForEvent, stageRank } from '../domain/order-stage';
import type { OrderStage, Sale } from '../tools/ad-tool';

/** A dispute or refund event about a payment whose sale is not known yet: redelivered a bit later. */
export class SaleNotKnownYet extends Error {
  constructor(paymentId: string) {
    super(`sale ${paymentId} not known yet; the event is redelivered`);
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
const date = (value: unknown, fallback: Date): Date => {
  const parsed = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(parsed) ? fallback : new Date(parsed);
};

/** The payment's snapshot a sale keeps, from the public payment object of a `payment.*` event. */
function snapshotOf(object: Record<string, unknown>, eventAt: Date) {
  const customer = (object.customer ?? {}) as Record<string, unknown>;
  const tracking: Record<string, string> = {};
  for (const [key, value] of Object.entries((object.tracking ?? {}) as Record<string, unknown>)) if (typeof value === 'string' && value !== '') tracking[key] = value;
  return {
    method: (text(object.method) as Sale['method']) ?? null,
    amount: int(object.amount) ?? 0,
    amount_refunded: int(object.amount_refunded) ?? 0,
    fee: int(object.fee),
    net: int(object.net),
    description: text(object.description),
    customer: { name: text(customer.name), email: text(customer.email), phone: text(customer.phone), document: text(customer.document), ip: text(customer.ip) },
    tracking,
    subscription_id: text(object.subscription_id),
    snapshot_at: date(object.updated_at, eventAt),
  };
}

/**
 * Sales kept from the bus (payments, disputes). Every write is one conditional single-document
 * write: the stage only moves to a higher rank, the snapshot only to a newer one, each instant is
 * set once; so events arriving twice or out of order change nothing they should not. After the
 * writes, when the sale stands at the event's stage, `onStage` makes its deliveries (idempotent:
 * a unique key per delivery), which also makes good a crash between the two.
 */
export class SalesService {
  constructor(
    private readonly sales: SaleModel,
    private readonly logger: Logger,
    private readonly onStage: (sale: SaleDoc, stage: OrderStage) => Promise<void>,
    /** Whether the merchant has an integration taking sales of the mode: without one, no sale is read back for deliveries. */
    private readonly wantsDeliveries: (merchantId: string, mode: 'test' | 'live') => Promise<boolean> = async () => true,
  ) {}

  async applyEvent(event: EventEnvelope): Promise<void> {
    if (event.type.startsWith('payment.')) return this.applyPaymentEvent(event);
    if (event.type === 'dispute.closed') return this.applyDisputeClosed(event);
  }

  private async applyPaymentEvent(event: EventEnvelope): Promise<void> {
    const parsed = paymentObjectSchema.safeParse(event.data?.object);
    if (!parsed.success) return void this.logger.error({ event_id: event.id, type: event.type }, 'malformed payment event dropped');
    const object = parsed.data as Record<string, unknown> & { id: string; method: Sale['method'] };
    const eventAt = new Date(event.created * 1000);
    const stage = stageForEvent({ type: event.type, method: object.method, status: typeof object['status'] === 'string' ? object['status'] : null });
    const snapshot = snapshotOf(object, eventAt);
    const now = new Date();
    const doc: SaleDoc = {
      _id: object.id,
      merchant_id: event.merchant_id,
      mode: event.mode,
      ...snapshot,
      stage,
      stage_rank: stage ? stageRank(stage) : -1,
      payment_created_at: date(object.created_at, eventAt),
      approved_at: event.type === 'payment.succeeded' ? eventAt : null,
      refunded_at: event.type === 'payment.refunded' ? eventAt : null,
      chargedback_at: null,
      created_at: now,
      updated_at: now,
    };
    const inserted = await this.sales.create(doc).then(
      () => true,
      (error: unknown) => {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      },
    );
    if (!inserted) {
      await this.sales.updateOne({ _id: object.id, snapshot_at: { $lt: snapshot.snapshot_at } }, { $set: { ...snapshot, updated_at: now } });
      // Instants first, so deliveries made for the stage see them.
      if (doc.approved_at) await this.sales.updateOne({ _id: object.id, approved_at: null }, { $set: { approved_at: doc.approved_at } });
      if (doc.refunded_at) await this.sales.updateOne({ _id: object.id, refunded_at: null }, { $set: { refunded_at: doc.refunded_at } });
      if (stage) await this.moveStage(object.id, stage, now);
    }
    if (stage && (await this.wantsDeliveries(event.merchant_id, event.mode))) await this.deliverIfAt(object.id, stage);
  }

  private async applyDisputeClosed(event: EventEnvelope): Promise<void> {
    const parsed = disputeObjectSchema.safeParse(event.data?.object);
    if (!parsed.success) return void this.logger.error({ event_id: event.id }, 'malformed dispute event dropped');
    const stage = stageForEvent({ type: event.type, dispute_status: parsed.data.status });
    if (!stage) return;
    const paymentId = parsed.data.payment_id;
    const known = await this.sales.exists({ _id: paymentId });
    if (!known) throw new SaleNotKnownYet(paymentId);
    const at = new Date(event.created * 1000);
    await this.sales.updateOne({ _id: paymentId, chargedback_at: null }, { $set: { chargedback_at: at } });
    await this.moveStage(paymentId, stage, new Date());
    if (await this.wantsDeliveries(event.merchant_id, event.mode)) await this.deliverIfAt(paymentId, stage);
  }

  /** The one write that moves a stage: only to a higher rank (a same-rank stage never replaces the first). */
  private async moveStage(paymentId: string, stage: OrderStage, now: Date): Promise<void> {
    const rank = stageRank(stage);
    await this.sales.updateOne({ _id: paymentId, stage_rank: { $lt: rank } }, { $set: { stage, stage_rank: rank, updated_at: now } });
  }

  /**
   * Deliveries for `stage` when the sale stands there, or when the stage is `paid` and the sale
   * is already past it (refunded or chargedback: it was paid): a purchase whose approval event
   * arrived after the refund's is still sent, while the order's lower stage is not (saleReached).
   */
  private async deliverIfAt(paymentId: string, stage: OrderStage): Promise<void> {
    const sale = await this.sales.findById(paymentId).lean<SaleDoc>();
    if (!sale) return;
    const pastPaid = stage === 'paid' && (sale.stage === 'refunded' || sale.stage === 'chargedback');
    if (sale.stage === stage || pastPaid) await this.onStage(sale, stage);
  }

  async get(paymentId: string): Promise<SaleDoc | null> {
    return this.sales.findById(paymentId).lean<SaleDoc>();
  }

  /** The merchant's last approved sale among `modes` (POST /integrations/{id}/test). */
  async lastApproved(merchantId: string, modes: Array<'test' | 'live'>): Promise<SaleDoc | null> {
    return this.sales
      .findOne({ merchant_id: merchantId, approved_at: { $ne: null }, mode: { $in: modes } })
      .sort({ approved_at: -1 })
      .lean<SaleDoc>();
  }
}

/** The sale as the tools take it (ad-tool.ts `Sale`), with the payment page's visit. */
export function toToolSale(sale: SaleDoc, visit: VisitDoc | null): Sale {
  const iso = (value: Date | null) => (value ? value.toISOString() : null);
  return {
    payment_id: sale._id,
    merchant_id: sale.merchant_id,
    mode: sale.mode,
    method: sale.method,
    stage: sale.stage ?? 'waiting_payment',
    amount: sale.amount,
    amount_refunded: sale.amount_refunded,
    fee: sale.fee,
    net: sale.net,
    description: sale.description,
    customer: sale.customer,
    // Values sent at creation win over the link's (spec §2): the payment's are already merged.
    tracking: { ...(visit?.tracking ?? {}), ...sale.tracking },
    subscription_id: sale.subscription_id,
    created_at: sale.payment_created_at.toISOString(),
    approved_at: iso(sale.approved_at),
    refunded_at: iso(sale.refunded_at),
    chargedback_at: iso(sale.chargedback_at),
    visit: visit ? { ip: visit.ip, user_agent: visit.user_agent, url: visit.url, first_seen_at: visit.first_seen_at.toISOString() } : null,
  };
}

import { context, propagation } from '@opentelemetry/api';
import { PAYMENT_ATTEMPT_RECORDED, toPublicRefund, type PaymentAttemptRecorded } from '@orquestra/contracts';
import { AppError, LockManager, newId, outboxEntries, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { PaymentLinks } from '../domain/payment-links';
import { searchableDocument } from '../domain/payment-search';
import { canTransition, type PaymentStatus } from '../domain/payment-status';
import type { RefundPlan } from '../domain/refunds';
import { publicPaymentObject, toProtoRefund } from './payment.mapper';
import type { PaymentMetrics } from '../metrics/payment-metrics';
import type { CustomerStore } from './customer.store';
import type { AttemptDoc, PaymentDoc, PaymentModel, RefundDoc } from './payment.model';

/**
 * Every payment state change goes through here: checked against the transition table, made under
 * the payment's document lock against a fresh read (so a concurrent change makes it a no-op, never
 * a double or lost transition), and written as one single-document update that carries its event
 * in the outbox.
 */
export class PaymentStore {
  /** Links new payments to customer records (set by main.ts; absent in tests that do not need it). */
  customers: CustomerStore | undefined;
  /** Counts payments entering each status (set by main.ts; absent in tests that do not need it). */
  metrics: PaymentMetrics | undefined;

  constructor(
    readonly model: PaymentModel,
    /** Creations that failed at every account: kept for their attempts (health, audit). */
    private readonly failedCreations: Collection<Document>,
    private readonly locks: LockManager,
    private readonly outbox: OutboxRelay,
    private readonly links: PaymentLinks,
  ) {}

  get collection(): Collection<Document> {
    return this.model.collection as unknown as Collection<Document>;
  }

  /** The event for `doc` as it will be after the change. */
  event(type: string, doc: PaymentDoc): EventEnvelope {
    return {
      id: newId('event'),
      type,
      created: Math.floor(Date.now() / 1000),
      merchant_id: doc.merchant_id,
      mode: doc.mode,
      source: doc.source_key_id || null,
      data: { object: publicPaymentObject(doc, this.links.paymentUrl(doc._id)) },
    };
  }

  /**
   * Moves `current` to `to` and records `eventType`. Returns the updated payment, or null when the
   * payment was changed by someone else since `current` was read (the caller re-reads and decides).
   */
  async transition(
    current: PaymentDoc,
    to: PaymentStatus,
    eventType: string,
    changes: Partial<PaymentDoc> = {},
    /** Further events written with the change (e.g. internal attempt events of a charge walk). */
    extraEvents: EventEnvelope[] = [],
  ): Promise<PaymentDoc | null> {
    if (!canTransition(current.status, to)) {
      throw new Error(`illegal payment transition ${current.status} → ${to} for ${current._id}`);
    }
    const updated = await this.locks.withLock(LockManager.documentLock(this.collection.collectionName, current._id), async () => {
      const fresh = await this.model.findById(current._id).lean<PaymentDoc>();
      if (!fresh || fresh.status !== current.status) return null;
      const now = new Date();
      const next: PaymentDoc = { ...fresh, ...changes, status: to, updated_at: now };
      const event = this.event(eventType, next);
      const eventRef = { id: event.id, type: event.type, created: event.created };
      await this.collection.updateOne(
        { _id: current._id as never },
        withOutbox({ $set: { ...changes, status: to, updated_at: now }, $push: { events: eventRef } }, [event, ...extraEvents]),
      );
      return { ...next, events: [...fresh.events, eventRef], outbox: [...fresh.outbox, ...outboxEntries([event, ...extraEvents])] };
    });
    if (updated) {
      this.metrics?.entering(updated);
      void this.outbox.flush(this.collection, current._id);
    }
    return updated;
  }

  /**
   * Moves a payment's due work to `dueAt` (under its document lock), unless it changed since
   * `current` was read. For due work that must be tried again later: a new due time puts it
   * behind work that is due now, so it never holds up the rest.
   */
  async reschedule(current: PaymentDoc, dueAt: Date): Promise<void> {
    await this.locks.withLock(LockManager.documentLock(this.collection.collectionName, current._id), async () => {
      await this.collection.updateOne({ _id: current._id as never, status: current.status, due_at: current.due_at }, { $set: { due_at: dueAt, updated_at: new Date() } });
    });
  }

  /** The event of one refund of `payment` (data.object is the public refund). */
  refundEvent(type: string, payment: PaymentDoc, refund: RefundDoc): EventEnvelope {
    return {
      id: newId('event'),
      type,
      created: Math.floor(Date.now() / 1000),
      merchant_id: payment.merchant_id,
      mode: payment.mode,
      source: payment.source_key_id || null,
      data: { object: toPublicRefund(toProtoRefund(refund, payment._id)) as unknown as Record<string, unknown> },
    };
  }

  /**
   * Changes a payment's refunds under the payment's document lock (the lock transition() takes):
   * `plan` sees a fresh read and answers the new refunds, amounts, status and events, or null for
   * "nothing to change". One single-document write carries the change and its events (outbox).
   * Answers the payment as it is after (unchanged when plan answered null), or null if unknown.
   */
  async changeRefunds(paymentId: string, plan: (fresh: PaymentDoc & { refunds: RefundDoc[] }) => RefundPlan | null): Promise<PaymentDoc | null> {
    let wrote = false;
    let statusChanged = false;
    const result = await this.locks.withLock(LockManager.documentLock(this.collection.collectionName, paymentId), async () => {
      const stored = await this.model.findById(paymentId).lean<PaymentDoc>();
      if (!stored) return null;
      const fresh = { ...stored, refunds: stored.refunds ?? [] };
      const change = plan(fresh);
      if (!change) return fresh;
      if (change.status !== fresh.status && !canTransition(fresh.status, change.status)) {
        throw new Error(`illegal payment transition ${fresh.status} → ${change.status} for ${paymentId}`);
      }
      const now = new Date();
      const next: PaymentDoc = { ...fresh, refunds: change.refunds, amount_refunded: change.amount_refunded, status: change.status, updated_at: now };
      const events = change.events.map((event) => {
        const refund = event.refundId ? change.refunds.find((r) => r.id === event.refundId) : undefined;
        return refund ? this.refundEvent(event.type, next, refund) : this.event(event.type, next);
      });
      const eventRefs = events.map((event) => ({ id: event.id, type: event.type, created: event.created }));
      const set = { refunds: change.refunds, amount_refunded: change.amount_refunded, status: change.status, updated_at: now };
      await this.collection.updateOne(
        { _id: paymentId as never },
        events.length > 0 ? withOutbox({ $set: set, $push: { events: { $each: eventRefs } } }, events) : { $set: set },
      );
      wrote = events.length > 0;
      statusChanged = change.status !== fresh.status;
      return { ...next, events: [...fresh.events, ...eventRefs], outbox: [...fresh.outbox, ...outboxEntries(events)] };
    });
    if (wrote) void this.outbox.flush(this.collection, paymentId);
    if (statusChanged && result) this.metrics?.entering(result);
    return result;
  }

  /** Internal events telling routing how each provider attempt went (per-account health). */
  attemptEvents(payment: Pick<PaymentDoc, '_id' | 'merchant_id' | 'mode' | 'source_key_id'>, attempts: AttemptDoc[]): EventEnvelope[] {
    return attempts.map((attempt) => {
      const object: PaymentAttemptRecorded = {
        payment_id: payment._id,
        provider_account_id: attempt.provider_account_id,
        provider: attempt.provider,
        outcome: attempt.outcome,
        failure_code: attempt.failure_code,
        latency_ms: attempt.latency_ms,
        at: attempt.created_at.toISOString(),
      };
      return {
        id: newId('event'),
        type: PAYMENT_ATTEMPT_RECORDED,
        created: Math.floor(Date.now() / 1000),
        merchant_id: payment.merchant_id,
        mode: payment.mode,
        source: payment.source_key_id || null,
        data: { object: object as unknown as Record<string, unknown> },
      };
    });
  }

  /**
   * Adds the attempts of a charge walk that charged nowhere to a payment that stays as it is (a
   * buyer's choice on the payment page that failed at every account), with their internal events.
   */
  async recordAttempts(paymentId: string, attempts: AttemptDoc[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.locks.withLock(LockManager.documentLock(this.collection.collectionName, paymentId), async () => {
      const fresh = await this.model.findById(paymentId).lean<PaymentDoc>();
      if (!fresh) return;
      const events = this.attemptEvents(fresh, attempts);
      await this.collection.updateOne(
        { _id: paymentId as never },
        withOutbox({ $set: { attempts: [...fresh.attempts, ...attempts], updated_at: new Date() } }, events),
      );
    });
    void this.outbox.flush(this.collection, paymentId);
  }

  /** Keeps a creation that failed everywhere (nothing was charged) with its attempts' events. */
  async recordFailedCreation(payment: PaymentDoc, attempts: AttemptDoc[], errorCode: string): Promise<void> {
    const events = this.attemptEvents(payment, attempts);
    await this.failedCreations.insertOne({
      _id: payment._id as never,
      merchant_id: payment.merchant_id,
      mode: payment.mode,
      source_key_id: payment.source_key_id,
      amount: payment.amount,
      method: payment.method,
      error_code: errorCode,
      attempts,
      created_at: new Date(),
      outbox: outboxEntries(events),
      outbox_since: events.length > 0 ? new Date() : null,
    });
    if (events.length > 0) void this.outbox.flush(this.failedCreations, payment._id);
  }

  /** Stores a new payment together with its first events (one insert: nothing to lock). */
  async insertWithEvents(doc: PaymentDoc, eventTypes: string[]): Promise<PaymentDoc> {
    const events = eventTypes.map((type) => this.event(type, doc));
    const customerId = this.customers ? await this.customers.link(doc) : undefined;
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const stored: PaymentDoc & { search: { document: string } } = {
      ...doc,
      ...(Object.keys(trace).length > 0 ? { trace } : {}),
      ...(customerId ? { customer_id: customerId } : {}),
      // Normalized search keys for GET /v1/payments?q= (the document as digits only).
      search: { document: searchableDocument(doc.customer.document) },
      events: events.map((event) => ({ id: event.id, type: event.type, created: event.created })),
      outbox: outboxEntries([...events, ...this.attemptEvents(doc, doc.attempts)]),
      outbox_since: new Date(),
    };
    await this.model.collection.insertOne(stored as never);
    this.metrics?.entering(stored);
    void this.outbox.flush(this.collection, doc._id);
    return stored;
  }

  async findForCaller(id: string, scope: { merchantId: string; mode: 'test' | 'live'; restrictedKeyId?: string }): Promise<PaymentDoc> {
    const doc = await this.model
      .findOne({
        _id: id,
        merchant_id: scope.merchantId,
        mode: scope.mode,
        ...(scope.restrictedKeyId ? { source_key_id: scope.restrictedKeyId } : {}),
      })
      .lean<PaymentDoc>();
    if (!doc) throw new AppError('not_found', { param: 'id', message: `Pagamento ${id} não encontrado. Confira o id e o modo (teste ou produção) da chave.` });
    return doc;
  }
}

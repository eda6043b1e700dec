import { context, propagation } from '@opentelemetry/api';
import { PAYMENT_ATTEMPT_RECORDED, toPublicRefund, type PaymentAttemptRecorded } from '@orquestra/contracts';
import { AppError, newId, outboxEntries, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { FilterQuery } from 'mongoose';
import type { PaymentLinks } from '../domain/payment-links';
import { searchableDocument } from '../domain/payment-search';
import { canTransition, type PaymentStatus } from '../domain/payment-status';
import type { RefundPlan } from '../domain/refunds';
import { publicPaymentObject, toProtoRefund } from './payment.mapper';
import type { PaymentMetrics } from '../metrics/payment-metrics';
import type { CustomerStore } from './customer.store';
import type { FailedCreationModel } from './failed-creation.model';
import { LOST_RACE, retryLostRaces } from './lost-race';
import type { AttemptDoc, PaymentDoc, PaymentModel, RefundDoc } from './payment.model';

/**
 * Every payment state change goes through here: checked against the transition table and written
 * as one conditional single-document update that carries its event in the outbox. The filter
 * names the status the change starts from and the version the change was computed from, so of
 * two writers racing (a webhook and a sync, an expiry and a payment) exactly one moves the
 * payment; the other re-reads and decides again, never doubling a transition or an event.
 */
export class PaymentStore {
  /** Links new payments to customer records (set by main.ts; absent in tests that do not need it). */
  customers: CustomerStore | undefined;
  /** Counts payments entering each status (set by main.ts; absent in tests that do not need it). */
  metrics: PaymentMetrics | undefined;

  constructor(
    readonly model: PaymentModel,
    /** Creations that failed at every account: kept for their attempts (health, audit). */
    readonly failedCreations: FailedCreationModel,
    private readonly outbox: OutboxRelay,
    private readonly links: PaymentLinks,
  ) {}

  /** The driver collection, for the outbox relay and the expiry worker. */
  get collection(): Collection<Document> {
    return this.model.collection;
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
   * payment left `current.status` since `current` was read, or no longer matches `guard` (the
   * caller re-reads and decides). A change that lost only to a write that kept the status (a
   * refund report, recorded attempts) is computed again from a fresh read.
   */
  async transition(
    current: PaymentDoc,
    to: PaymentStatus,
    eventType: string,
    changes: Partial<PaymentDoc> = {},
    /** Further events written with the change (e.g. internal attempt events of a charge walk). */
    extraEvents: EventEnvelope[] = [],
    /** What else must still hold for the change (e.g. the buyer's method choice is this caller's). */
    guard: FilterQuery<PaymentDoc> = {},
  ): Promise<PaymentDoc | null> {
    if (!canTransition(current.status, to)) {
      throw new Error(`illegal payment transition ${current.status} → ${to} for ${current._id}`);
    }
    let read = current;
    const updated = await retryLostRaces(`payment ${current._id}`, async () => {
      const now = new Date();
      const event = this.event(eventType, { ...read, ...changes, status: to, updated_at: now });
      const written = await this.model
        .findOneAndUpdate(
          { ...guard, _id: current._id, status: current.status, version: read.version ?? null },
          withOutbox(
            { $set: { ...changes, status: to, updated_at: now }, $push: { events: { id: event.id, type: event.type, created: event.created } }, $inc: { version: 1 } },
            [event, ...extraEvents],
          ),
          { returnDocument: 'after' },
        )
        .lean<PaymentDoc>();
      if (written) return written;
      const fresh = await this.model.findById(current._id).lean<PaymentDoc>();
      // Gone, moved on, or unchanged since the read (then `guard` no longer holds): not this change.
      if (!fresh || fresh.status !== current.status || (fresh.version ?? 0) === (read.version ?? 0)) return null;
      read = fresh;
      return LOST_RACE;
    });
    if (updated) {
      this.metrics?.entering(updated);
      void this.outbox.flush(this.collection, current._id);
    }
    return updated;
  }

  /**
   * Moves a payment's due work to `dueAt`, unless it changed since `current` (the due-work claim)
   * was read. For due work that must be tried again later: a new due time puts it behind work that
   * is due now, so it never holds up the rest.
   */
  async reschedule(current: PaymentDoc, dueAt: Date): Promise<void> {
    await this.model.updateOne({ _id: current._id, status: current.status, due_at: current.due_at }, { $set: { due_at: dueAt, updated_at: new Date() } });
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
   * Changes a payment's refunds: `plan` sees a fresh read and answers the new refunds, amounts,
   * status and events, or null for "nothing to change". One conditional write on the version read
   * carries the change and its events (outbox); when another writer changed the payment first,
   * `plan` runs again on a fresh read, so two changes never both count against the same read (a
   * refund reservation never passes the amount). Answers the payment as it is after (as read when
   * plan answered null), or null if unknown.
   */
  async changeRefunds(paymentId: string, plan: (fresh: PaymentDoc & { refunds: RefundDoc[] }) => RefundPlan | null): Promise<PaymentDoc | null> {
    let wrote = false;
    let statusChanged = false;
    const result = await retryLostRaces(`payment ${paymentId}`, async () => {
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
      const update = { $set: { refunds: change.refunds, amount_refunded: change.amount_refunded, status: change.status, updated_at: now }, $inc: { version: 1 } };
      const written = await this.model
        .findOneAndUpdate(
          { _id: paymentId, version: fresh.version ?? null },
          events.length > 0 ? withOutbox({ ...update, $push: { events: { $each: eventRefs } } }, events) : update,
          { returnDocument: 'after' },
        )
        .lean<PaymentDoc>();
      if (!written) return LOST_RACE;
      wrote = events.length > 0;
      statusChanged = change.status !== fresh.status;
      return written;
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
   * `$push` appends beside any concurrent write; the version moves because the attempts are state.
   */
  async recordAttempts(payment: Pick<PaymentDoc, '_id' | 'merchant_id' | 'mode' | 'source_key_id'>, attempts: AttemptDoc[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.model.updateOne(
      { _id: payment._id },
      withOutbox({ $push: { attempts: { $each: attempts } }, $set: { updated_at: new Date() }, $inc: { version: 1 } }, this.attemptEvents(payment, attempts)),
    );
    void this.outbox.flush(this.collection, payment._id);
  }

  /** Keeps a creation that failed everywhere (nothing was charged) with its attempts' events. */
  async recordFailedCreation(payment: PaymentDoc, attempts: AttemptDoc[], errorCode: string): Promise<void> {
    const events = this.attemptEvents(payment, attempts);
    await this.failedCreations.create({
      _id: payment._id,
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
    if (events.length > 0) void this.outbox.flush(this.failedCreations.collection, payment._id);
  }

  /** Stores a new payment together with its first events (one insert). */
  async insertWithEvents(doc: PaymentDoc, eventTypes: string[]): Promise<PaymentDoc> {
    const events = eventTypes.map((type) => this.event(type, doc));
    const customerId = this.customers ? await this.customers.link(doc) : undefined;
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const stored: PaymentDoc = {
      ...doc,
      ...(Object.keys(trace).length > 0 ? { trace } : {}),
      ...(customerId ? { customer_id: customerId } : {}),
      search: { document: searchableDocument(doc.customer.document) },
      events: events.map((event) => ({ id: event.id, type: event.type, created: event.created })),
      version: 0,
      outbox: outboxEntries([...events, ...this.attemptEvents(doc, doc.attempts)]),
      outbox_since: new Date(),
    };
    await this.model.create(stored);
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

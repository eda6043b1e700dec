/**
 * Over 300 lines: the only way to the payments collection, so every scoped read and every guarded
 * state-change write of a payment lives here.
 */
import { context, propagation } from '@opentelemetry/api';
import { AppError, outboxEntries, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { PaymentLinks } from '../domain/payment-links';
import { searchableDocument } from '../domain/payment-search';
import { canTransition, type PaymentStatus } from '../domain/payment-status';
import type { RefundPlan } from '../domain/refunds';
import type { PaymentMetrics } from '../metrics/payment-metrics';
import type { CustomerStore } from './customer.store';
import type { FailedCreationModel } from './failed-creation.model';
import { LOST_RACE, retryLostRaces } from './lost-race';
import { attemptEvents, paymentEvent, refundEvent } from './payment-events';
import { listFilter, methodChoiceHeldBy, noMethodChoice, type CallerScope, type PaymentGuard, type PaymentListQuery } from './payment-filters';
import type { AttemptDoc, MethodChoiceDoc, PaymentDoc, PaymentModel, RefundDoc } from './payment.model';

/** The statuses in which the payment page's link tracking is still taken (the buyer can still pay). */
const OPEN_FOR_TRACKING: string[] = ['requires_method', 'pending', 'processing'];

export interface PaymentStoreOptions {
  /** Links new payments to customer records (absent in tests that do not need it). */
  customers?: CustomerStore;
  /** Counts payments entering each status (absent in tests that do not need it). */
  metrics?: PaymentMetrics;
}

/**
 * Every payment state change goes through here: checked against the transition table and written
 * as one conditional single-document update that carries its event in the outbox. The filter
 * names the status the change starts from and the version the change was computed from, so of
 * two writers racing (a webhook and a sync, an expiry and a payment) exactly one moves the
 * payment; the other re-reads and decides again, never doubling a transition or an event.
 *
 * The only way to the payments collection: callers outside db/ never see the model, and every
 * read by a caller goes through its scope (merchant, mode, restricted key) here. Reads without a
 * scope are named for the one source that makes them safe (an id from this merchant's own
 * record, a provider's report about its account, the public payment page).
 */
export class PaymentStore {
  private readonly customers: CustomerStore | undefined;
  private readonly metrics: PaymentMetrics | undefined;

  constructor(
    private readonly model: PaymentModel,
    /** Creations that failed at every account: kept for their attempts (health, audit). */
    private readonly failedCreations: FailedCreationModel,
    private readonly outbox: OutboxRelay,
    private readonly links: PaymentLinks,
    options: PaymentStoreOptions = {},
  ) {
    this.customers = options.customers;
    this.metrics = options.metrics;
  }

  /** The driver collection, for the outbox relay and the expiry worker. */
  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /** The event for `doc` as it will be after the change. */
  private event(type: string, doc: PaymentDoc): EventEnvelope {
    return paymentEvent(type, doc, this.links);
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
    guard: PaymentGuard = {},
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
        return refund ? refundEvent(event.type, next, refund) : this.event(event.type, next);
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

  /**
   * Adds the attempts of a charge walk that charged nowhere to a payment that stays as it is (a
   * buyer's choice on the payment page that failed at every account), with their internal events.
   * `$push` appends beside any concurrent write; the version moves because the attempts are state.
   */
  async recordAttempts(payment: Pick<PaymentDoc, '_id' | 'merchant_id' | 'mode' | 'source_key_id'>, attempts: AttemptDoc[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.model.updateOne(
      { _id: payment._id },
      withOutbox({ $push: { attempts: { $each: attempts } }, $set: { updated_at: new Date() }, $inc: { version: 1 } }, attemptEvents(payment, attempts)),
    );
    void this.outbox.flush(this.collection, payment._id);
  }

  /**
   * Takes over the sending of a cycle payment's charge (a repeat of CreateCyclePayment): one
   * conditional write, won only while no charge is recorded and no other caller's send is running
   * (none claimed, or its lease ran out). Null when another holds it or there is nothing to send.
   */
  async claimCycleCharge(paymentId: string, until: Date, now: Date): Promise<PaymentDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: paymentId, status: 'pending', provider_payment_id: '', $or: [{ cycle_charge_until: null }, { cycle_charge_until: { $lte: now } }] },
        { $set: { cycle_charge_until: until } },
        { returnDocument: 'after' },
      )
      .lean<PaymentDoc>();
  }

  /**
   * Records the cycle charge the provider scheduled for `claimed` (its id, the attempt) with
   * `payment.pending`, in one write made only while the send's claim still stands. Null when it
   * no longer does (a caller that took over after the lease recorded the same charge: the
   * provider's create is idempotent on the payment id).
   */
  async recordCycleCharge(claimed: PaymentDoc, providerChargeId: string, attempt: AttemptDoc): Promise<PaymentDoc | null> {
    const now = new Date();
    const next: PaymentDoc = { ...claimed, provider_payment_id: providerChargeId, cycle_charge_until: null, attempts: [...claimed.attempts, attempt], updated_at: now };
    const event = this.event('payment.pending', next);
    const written = await this.model
      .findOneAndUpdate(
        { _id: claimed._id, status: 'pending', provider_payment_id: '', cycle_charge_until: claimed.cycle_charge_until ?? null },
        withOutbox(
          {
            $set: { provider_payment_id: providerChargeId, cycle_charge_until: null, updated_at: now },
            $push: { attempts: attempt, events: { id: event.id, type: event.type, created: event.created } },
            $inc: { version: 1 },
          },
          [event, ...attemptEvents(claimed, [attempt])],
        ),
        { returnDocument: 'after' },
      )
      .lean<PaymentDoc>();
    if (written) void this.outbox.flush(this.collection, claimed._id);
    return written;
  }

  /**
   * Ends a send of a cycle charge whose outcome is unknown (timeout, provider unreachable): the
   * payment stays pending without a charge, with the attempt, and the claim is freed so the
   * caller's retry sends again at once (with the same payment id, so never a second charge).
   */
  async releaseCycleCharge(claimed: PaymentDoc, attempt: AttemptDoc): Promise<void> {
    const written = await this.model.updateOne(
      { _id: claimed._id, provider_payment_id: '', cycle_charge_until: claimed.cycle_charge_until ?? null },
      withOutbox({ $set: { cycle_charge_until: null, updated_at: new Date() }, $push: { attempts: attempt }, $inc: { version: 1 } }, attemptEvents(claimed, [attempt])),
    );
    if (written.modifiedCount > 0) void this.outbox.flush(this.collection, claimed._id);
  }

  /** Keeps a creation that failed everywhere (nothing was charged) with its attempts' events. */
  async recordFailedCreation(payment: PaymentDoc, attempts: AttemptDoc[], errorCode: string): Promise<void> {
    const events = attemptEvents(payment, attempts);
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
      outbox: outboxEntries([...events, ...attemptEvents(doc, doc.attempts)]),
      outbox_since: new Date(),
      // Stored already leased to this relay, which publishes the events at once (no claim).
      outbox_lease: this.outbox.leaseEnd(),
    };
    await this.model.create(stored);
    this.metrics?.entering(stored);
    void this.outbox.publishWritten(this.collection, doc._id, stored.outbox);
    return stored;
  }

  async findForCaller(id: string, scope: CallerScope): Promise<PaymentDoc> {
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

  /** A page of the caller's payments, newest first. Ids sort by creation time (ULID), so a cursor stays correct while payments are created. */
  async list(scope: CallerScope, query: PaymentListQuery, limit: number): Promise<{ data: PaymentDoc[]; hasMore: boolean }> {
    const docs = await this.model.find(listFilter(scope, query)).sort({ _id: -1 }).limit(limit + 1).lean<PaymentDoc[]>();
    return { data: docs.slice(0, limit), hasMore: docs.length > limit };
  }

  /**
   * A subaccount's split payments (spec §2: "totals and its recent split payments"): per status,
   * how many payments split to it and the sum of its parts; and the newest `recentLimit` of them.
   * Read from the split index; the grouping runs over that subaccount's payments only.
   */
  async splitSummary(
    scope: { merchantId: string; mode: 'test' | 'live' },
    subaccountId: string,
    recentLimit: number,
  ): Promise<{ byStatus: Array<{ status: string; payments: number; amount: number }>; recent: PaymentDoc[] }> {
    const match = { merchant_id: scope.merchantId, mode: scope.mode, 'splits.subaccount_id': subaccountId };
    const [byStatus, recent] = await Promise.all([
      this.model.aggregate<{ _id: string; payments: number; amount: number }>([
        { $match: match },
        { $unwind: '$splits' },
        { $match: { 'splits.subaccount_id': subaccountId } },
        { $group: { _id: '$status', payments: { $sum: 1 }, amount: { $sum: '$splits.amount' } } },
      ]),
      this.model.find(match).sort({ _id: -1 }).limit(recentLimit).lean<PaymentDoc[]>(),
    ]);
    return { byStatus: byStatus.map((group) => ({ status: group._id, payments: group.payments, amount: group.amount })), recent };
  }

  /**
   * By id alone: for an id that came from a scoped source (this merchant's idempotency record),
   * from due work, or from the public payment page (which shows only what the page may).
   */
  async findById(id: string): Promise<PaymentDoc | null> {
    return this.model.findById(id).lean<PaymentDoc>();
  }

  /** The payment of a provider's charge (its webhooks and reports name the account and the charge). */
  async findByCharge(accountId: string, providerPaymentId: string): Promise<PaymentDoc | null> {
    return this.model.findOne({ provider_account_id: accountId, provider_payment_id: providerPaymentId }).lean<PaymentDoc>();
  }

  /** The payment a provider's dispute names at its account: by the charge id, else by the Pix end-to-end id. */
  async findByChargeOrEndToEnd(accountId: string, ids: { providerPaymentId?: string; endToEndId?: string }): Promise<PaymentDoc | null> {
    const by = [...(ids.providerPaymentId ? [{ provider_payment_id: ids.providerPaymentId }] : []), ...(ids.endToEndId ? [{ end_to_end_id: ids.endToEndId }] : [])];
    if (by.length === 0) return null;
    return this.model.findOne({ provider_account_id: accountId, $or: by }).lean<PaymentDoc>();
  }

  /** Whether the payment exists and its charge is at `accountId` (an orphan charge's adoption). */
  async isChargedAt(id: string, accountId: string): Promise<boolean> {
    return Boolean(await this.model.exists({ _id: id, provider_account_id: accountId }));
  }

  /** The Pix copy-and-paste text of an open payment, '' when there is none (public QR route). */
  async openPixCode(id: string): Promise<string> {
    const doc = await this.model.findOne({ _id: id, status: 'pending' }, { next_action: 1 }).lean<PaymentDoc>();
    return doc?.next_action?.type === 'pix_qr' ? doc.next_action.qr_code : '';
  }

  /**
   * Sets the keys of `tracking` the payment does not have yet, and answers its tracking as then
   * stored (null: no such payment). One conditional write per try: its filter requires each key
   * it sets to be still absent, so a value already there (sent at creation, or written by a
   * racing page visit) is never replaced; a try that lost to such a write reads again and sets
   * what is still missing. The version moves so that a transition computed from an older read
   * is computed again, and its event carries the merged tracking. `updated_at` stays: a page
   * view is not a change of the payment.
   */
  async fillMissingTracking(paymentId: string, tracking: Record<string, string>): Promise<Record<string, string> | null> {
    return retryLostRaces(`payment ${paymentId} tracking`, async () => {
      const read = await this.model.findById(paymentId, { tracking: 1, status: 1 }).lean<Pick<PaymentDoc, '_id' | 'tracking' | 'status'>>();
      if (!read) return null;
      const stored = read.tracking ?? {};
      const missing = Object.entries(tracking).filter(([key]) => !Object.prototype.hasOwnProperty.call(stored, key));
      // Only while the buyer can still pay: a link opened after the sale ended (paid, refunded,
      // expired) attributes nothing, and the tools were already told the sale's tracking.
      if (missing.length === 0 || !OPEN_FOR_TRACKING.includes(read.status)) return stored;
      const written = await this.model
        .findOneAndUpdate(
          { _id: paymentId, status: { $in: OPEN_FOR_TRACKING }, ...Object.fromEntries(missing.map(([key]) => [`tracking.${key}`, { $exists: false }])) },
          { $set: Object.fromEntries(missing.map(([key, value]) => [`tracking.${key}`, value])), $inc: { version: 1 } },
          { returnDocument: 'after', projection: { tracking: 1 } },
        )
        .lean<Pick<PaymentDoc, '_id' | 'tracking'>>();
      return written ? written.tracking : LOST_RACE;
    });
  }

  /** Claims the charging of the buyer's method choice on a payment awaiting it (one conditional write); null when another choice holds it or it no longer awaits. */
  async claimMethodChoice(paymentId: string, choice: MethodChoiceDoc, now: Date): Promise<PaymentDoc | null> {
    return this.model
      .findOneAndUpdate({ _id: paymentId, status: 'requires_method', ...noMethodChoice(now) }, { $set: { method_choice: choice } }, { returnDocument: 'after' })
      .lean<PaymentDoc>();
  }

  /** Ends a method choice that charged nothing (a charged one ended with its transition). */
  async releaseMethodChoice(paymentId: string, choiceId: string): Promise<void> {
    await this.model.updateOne({ _id: paymentId, ...methodChoiceHeldBy(choiceId) }, { $set: { method_choice: null } });
  }
}
